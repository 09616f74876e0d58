// Drop or choose a ZIP (by type or .zip extension, under 100 MB).
import { useId, useRef, useState } from 'react';
import { zipFileError } from '../../spec/validation';

interface Props {
  file: File | null;
  onFile: (file: File) => void;
  onError: (message: string) => void;
}

export function ZipDropZone({ file, onFile, onError }: Props) {
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();

  const accept = (candidate: File | undefined) => {
    if (!candidate) return;
    const error = zipFileError(candidate);
    if (error) onError(error);
    else onFile(candidate);
  };

  return (
    <div
      className={`drop-zone${over ? ' drop-zone--over' : ''}`}
      data-testid="zip-drop-zone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        accept(e.dataTransfer.files[0]);
      }}
    >
      <input
        ref={input}
        id={inputId}
        type="file"
        accept=".zip,application/zip,application/x-zip-compressed"
        className="visually-hidden"
        onChange={(e) => {
          accept(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <label htmlFor={inputId} className="drop-zone__label">
        {file ? (
          <>
            <strong>{file.name}</strong>
            <span className="muted">{(file.size / 1024 / 1024).toFixed(1)} MB · choose another file</span>
          </>
        ) : (
          <>
            <strong>Drop a ZIP archive here</strong>
            <span className="muted">or click to choose one (up to 100 MB)</span>
          </>
        )}
      </label>
    </div>
  );
}
