// Shown until the page's document is loaded and synced (spec section 4).
export function EditorSkeleton() {
  return (
    <div className="editor-skeleton page-content__skeleton" role="status" aria-label="Loading page" />
  );
}
