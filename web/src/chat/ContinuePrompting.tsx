// The floating button that brings the prompt back once the log is scrolled up.
export function ContinuePrompting({ visible, onClick }: { visible: boolean; onClick: () => void }) {
  if (!visible) return null;
  return (
    <button type="button" className="button button--primary chat-continue" onClick={onClick}>
      <span aria-hidden="true">↓</span> Continue prompting
    </button>
  );
}
