import { useCallback, useEffect, useState } from 'react';

// The dashboard's fullscreen presentation (spec document 1 section 2: a toggle that hides the menu):
// the menu, top bar and footer are hidden (dashboard.css, by the body's data-presentation) and the
// browser is asked for full screen. Leaving full screen (Escape) or the page ends it.

export function usePresentation() {
  const [on, setOn] = useState(false);

  useEffect(() => {
    if (!on) return;
    document.body.dataset.presentation = 'true';
    // the browser's own way out of full screen ends the presentation too
    const left = () => {
      if (!document.fullscreenElement) setOn(false);
    };
    document.addEventListener('fullscreenchange', left);
    return () => {
      delete document.body.dataset.presentation;
      document.removeEventListener('fullscreenchange', left);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    };
  }, [on]);

  const toggle = useCallback(() => {
    // a browser may refuse full screen (no user gesture, an iframe): the menu is hidden all the same
    if (!on) void document.documentElement.requestFullscreen?.().catch(() => undefined);
    setOn(!on);
  }, [on]);

  return { on, toggle };
}
