import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  darken,
  type MantineColorsTuple,
} from '@mantine/core';

// The theme meets WCAG 2.1 AA contrast (4.5:1 for text) everywhere, set once here rather than per
// component. Mantine's own palette does not: white on filled indigo is 4.3:1, green, orange and
// yellow text on their light backgrounds 2.8-4.0:1, red error text 3.3:1, dimmed grey 3.3:1. Shades
// 6 to 9 of every colour are what components draw text and filled backgrounds with (the primary
// shade is 6): here they are the colour's darkest shade darkened by 30% and more, 5.2:1 or better
// against white and against the colour's light background. Colours from data (a list option's hex
// colour) get black or white text, whichever contrasts more (luminanceThreshold 0.179 is where
// both are equal).

const readableShades = (colors: MantineColorsTuple): MantineColorsTuple => {
  const [c0, c1, c2, c3, c4, c5, , , , c9] = colors;
  return [c0, c1, c2, c3, c4, c5, darken(c9, 0.3), darken(c9, 0.35), darken(c9, 0.4), darken(c9, 0.45)];
};

const colors = Object.fromEntries(
  Object.entries(DEFAULT_THEME.colors)
    .filter(([name]) => name !== 'dark')
    .map(([name, shades]) =>
      name === 'gray'
        ? // dimmed text is grey 6: 4.7:1 instead of 3.3:1
          [name, shades.map((shade, i) => (i === 6 ? '#6c757d' : shade)) as unknown as MantineColorsTuple]
        : [name, readableShades(shades)],
    ),
);

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  colors,
  autoContrast: true,
  luminanceThreshold: 0.179,
  // the transitions of modals and menus are skipped for users who ask for reduced motion
  respectReducedMotion: true,
  components: {
    // Mantine's focus placeholder is a focusable child of role=menu that is not a menu item (axe:
    // aria-required-children); without it an opened menu focuses its first item, as the WAI-ARIA menu
    // pattern has it
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // the eye dropper is an unnamed icon button, and a browser feature few have
    ColorInput: { defaultProps: { withEyeDropper: false } },
    // a field's error is read out when it shows (Mantine ties it to its input with aria-describedby)
    InputError: { defaultProps: { role: 'alert' } },
  },
});

export const contrastVariables: CSSVariablesResolver = (resolved) => ({
  variables: {},
  // placeholders are text too (grey 5 is 2.1:1)
  light: { '--mantine-color-placeholder': resolved.colors.gray[6] },
  dark: {},
});
