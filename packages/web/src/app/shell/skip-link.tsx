import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

export const MAIN_ID = 'main-content';

/** The first tab stop of every shell page: a link past the header and the menu, visible when focused. */
export function SkipLink() {
  const { t } = useTranslation();
  const [focused, setFocused] = useState(false);
  return (
    <a
      href={`#${MAIN_ID}`}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      onClick={(event) => {
        event.preventDefault();
        focusMain();
      }}
      data-testid="skip-link"
      style={{
        position: 'fixed',
        zIndex: 1000,
        top: 8,
        left: 8,
        padding: '8px 12px',
        background: 'var(--mantine-color-body)',
        color: 'var(--mantine-color-anchor)',
        border: '2px solid var(--mantine-color-anchor)',
        borderRadius: 4,
        // off screen until focused, as the WAI pattern has it (not display: none, which takes it out of the tab order)
        transform: focused ? 'none' : 'translateY(-200%)',
      }}
    >
      {t('shell.skip_to_content')}
    </a>
  );
}

/**
 * Focus to the page's heading (or the main region while it loads), so a screen reader starts there;
 * also where the focus goes when what had it is gone (the list's bulk bar after its action).
 */
export function focusMain() {
  const main = document.getElementById(MAIN_ID);
  const heading = main?.querySelector<HTMLElement>('h1');
  if (heading && !heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  (heading ?? main)?.focus({ preventScroll: false });
}

/** After a navigation inside the shell, focus moves to the new page's heading instead of staying put. */
export function useFocusOnNavigation() {
  const { pathname } = useLocation();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each change of page, which pathname names
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // the page renders its heading once its data is there: look again for a moment
    let tries = 0;
    const timer = window.setInterval(() => {
      tries += 1;
      const main = document.getElementById(MAIN_ID);
      const active = document.activeElement;
      // the user has already moved into the new page (typing in a field, say): leave focus there
      if (main && active && active !== main && main.contains(active)) return window.clearInterval(timer);
      if (main?.querySelector('h1') || tries > 20) {
        window.clearInterval(timer);
        focusMain();
      }
    }, 50);
    return () => window.clearInterval(timer);
  }, [pathname]);
}
