// Page-view settings that live in the view: sidebar background and table of contents
// (both offered on wide screens only).
export interface ViewSettings {
  sidebarBackground: boolean;
  showToc: boolean;
}

export const DEFAULT_VIEW_SETTINGS: ViewSettings = { sidebarBackground: true, showToc: true };
