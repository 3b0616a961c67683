import type { Options } from 'signature_pad';

/** Spec section 9: min line width 0.5, max 2.5, min distance 5, dot size 1.5, black pen, throttle 28. */
export const SIGNATURE_PAD_OPTIONS = {
  minWidth: 0.5,
  maxWidth: 2.5,
  minDistance: 5,
  dotSize: 1.5,
  penColor: 'black',
  throttle: 28,
} as const satisfies Options;
