// A mermaid diagram with zoom; mermaid itself is loaded only when a diagram is shown.
import { useEffect, useId, useRef, useState } from 'react';
import { EDITOR_MSG } from '../rules/editorMessages';
import { zoomByButton, zoomByWheel } from './zoom';

let mermaidReady: Promise<typeof import('mermaid').default> | null = null;
function loadMermaid() {
  mermaidReady ??= import('mermaid').then(({ default: mermaid }) => {
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default' });
    return mermaid;
  });
  return mermaidReady;
}

export function MermaidDiagram({ code }: { code: string }) {
  const id = `mermaid-${useId().replace(/[^\w]/g, '')}`;
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [zoom, setZoom] = useState(1);
  const canvas = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    loadMermaid()
      .then((mermaid) => mermaid.render(`${id}-${Date.now()}`, code))
      .then(({ svg: out }) => {
        if (!live) return;
        setSvg(out);
        setFailed(false);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [code, id]);

  // the wheel zooms instead of scrolling the page: React's onWheel is passive, so it
  // could not prevent the scroll
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      setZoom((z) => zoomByWheel(z, event.deltaY));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [svg, failed]);

  if (failed) return <p className="diagram__error" role="alert">{EDITOR_MSG.diagramError}</p>;
  if (svg === null) return <div className="diagram__loading" role="status">Rendering diagram...</div>;
  return (
    <div className="diagram">
      <div className="diagram__zoom" role="group" aria-label="Zoom">
        <button type="button" className="icon-button" aria-label="Zoom out" onClick={() => setZoom((z) => zoomByButton(z, -1))}>−</button>
        <span aria-live="polite">{Math.round(zoom * 100)}%</span>
        <button type="button" className="icon-button" aria-label="Zoom in" onClick={() => setZoom((z) => zoomByButton(z, 1))}>+</button>
      </div>
      <div className="diagram__canvas" data-testid="diagram" ref={canvas}>
        {/* mermaid's strict security level sanitises the SVG it returns */}
        <div style={{ transform: `scale(${zoom})`, transformOrigin: 'top left' }} dangerouslySetInnerHTML={{ __html: svg }} />
      </div>
    </div>
  );
}
