import type { ReactNode } from 'react';

// Flag emoji do not render on Windows and many Linux desktops, so the flags are drawn as small SVGs.
const stripes = (colors: string[], vertical = false) =>
  colors.map((color, i) =>
    vertical ? (
      <rect
        key={color + String(i)}
        x={(i * 30) / colors.length}
        y={0}
        width={30 / colors.length}
        height={20}
        fill={color}
      />
    ) : (
      <rect
        key={color + String(i)}
        x={0}
        y={(i * 20) / colors.length}
        width={30}
        height={20 / colors.length}
        fill={color}
      />
    ),
  );

const FLAGS: Record<string, ReactNode> = {
  NL: stripes(['#AE1C28', '#FFFFFF', '#21468B']),
  DE: stripes(['#000000', '#DD0000', '#FFCE00']),
  RU: stripes(['#FFFFFF', '#0039A6', '#D52B1E']),
  FR: stripes(['#0055A4', '#FFFFFF', '#EF4135'], true),
  ES: (
    <>
      <rect width={30} height={20} fill="#AA151B" />
      <rect y={5} width={30} height={10} fill="#F1BF00" />
    </>
  ),
  CO: (
    <>
      <rect width={30} height={20} fill="#CE1126" />
      <rect width={30} height={15} fill="#003893" />
      <rect width={30} height={10} fill="#FCD116" />
    </>
  ),
  GB: (
    <>
      <rect width={30} height={20} fill="#012169" />
      <path d="M0 0L30 20M30 0L0 20" stroke="#FFFFFF" strokeWidth={4} />
      <path d="M0 0L30 20M30 0L0 20" stroke="#C8102E" strokeWidth={1.5} />
      <path d="M15 0V20M0 10H30" stroke="#FFFFFF" strokeWidth={6} />
      <path d="M15 0V20M0 10H30" stroke="#C8102E" strokeWidth={3.5} />
    </>
  ),
};

export function LocaleFlag({ locale, size = 18 }: { locale: string; size?: number }) {
  const flag = FLAGS[locale.slice(-2).toUpperCase()];
  if (!flag) return null;
  return (
    <svg
      width={size}
      height={(size * 2) / 3}
      viewBox="0 0 30 20"
      aria-hidden="true"
      style={{ borderRadius: 2, boxShadow: '0 0 0 1px rgba(0,0,0,0.1)', flexShrink: 0 }}
    >
      {flag}
    </svg>
  );
}
