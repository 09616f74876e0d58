// Diagram zoom (spec sections 4 and 9): clamped to 0.1..10, 0.001 per wheel delta,
// 0.05 per button press.
import { ZOOM_BUTTON_STEP, ZOOM_MAX, ZOOM_MIN, ZOOM_WHEEL_STEP } from '../rules/editorMessages';

export function clampZoom(zoom: number): number {
  return Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, zoom));
}

export function zoomByWheel(zoom: number, deltaY: number): number {
  return clampZoom(zoom - deltaY * ZOOM_WHEEL_STEP);
}

export function zoomByButton(zoom: number, direction: 1 | -1): number {
  return clampZoom(Math.round((zoom + direction * ZOOM_BUTTON_STEP) * 1000) / 1000);
}
