import { useEffect, useRef } from 'react';

/**
 * The WAI-ARIA toolbar pattern for a row of controls: the toolbar is one tab stop (the control used
 * last), the arrow keys Left and Right (Home, End) move between its controls.
 */
export function useRovingToolbar<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const toolbar = ref.current;
    if (!toolbar) return;
    toolbar.setAttribute('role', 'toolbar');
    let current = 0;
    const controls = () =>
      [...toolbar.querySelectorAll<HTMLElement>('button, input:not([type="hidden"])')].filter(
        (control) => !control.hasAttribute('disabled') && !control.closest('[hidden]'),
      );
    const apply = () => {
      const list = controls();
      current = Math.min(current, list.length - 1);
      list.forEach((control, index) => {
        control.tabIndex = index === current ? 0 : -1;
      });
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const list = controls();
      const index = list.indexOf(document.activeElement as HTMLElement);
      if (index < 0) return;
      const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: list.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      current = (next + list.length) % list.length;
      apply();
      list[current].focus();
    };
    const onFocusIn = (event: FocusEvent) => {
      const index = controls().indexOf(event.target as HTMLElement);
      if (index >= 0 && index !== current) {
        current = index;
        apply();
      }
    };
    apply();
    // controls come and go (the font pickers load with the editor): each new one leaves the tab order
    const observer = new MutationObserver(apply);
    observer.observe(toolbar, { childList: true, subtree: true });
    toolbar.addEventListener('keydown', onKeyDown);
    toolbar.addEventListener('focusin', onFocusIn);
    return () => {
      observer.disconnect();
      toolbar.removeEventListener('keydown', onKeyDown);
      toolbar.removeEventListener('focusin', onFocusIn);
    };
  }, []);
  return ref;
}
