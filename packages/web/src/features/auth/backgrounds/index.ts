// Four self-contained backgrounds (CSS gradients and inline SVG), one is picked at random per page load.
const svg = (markup: string) => `url("data:image/svg+xml,${encodeURIComponent(markup)}")`;

const waves = svg(
  '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900" viewBox="0 0 1600 900" preserveAspectRatio="none">' +
    '<path d="M0 600 C400 500 800 760 1600 560 L1600 900 L0 900Z" fill="#ffffff" fill-opacity="0.10"/>' +
    '<path d="M0 700 C500 620 900 840 1600 680 L1600 900 L0 900Z" fill="#ffffff" fill-opacity="0.12"/>' +
    '</svg>',
);

const dots = svg(
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">' +
    '<circle cx="20" cy="20" r="2" fill="#ffffff" fill-opacity="0.18"/></svg>',
);

const grid = svg(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">' +
    '<path d="M64 0H0V64" fill="none" stroke="#ffffff" stroke-opacity="0.08" stroke-width="1"/></svg>',
);

const circles = svg(
  '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900" viewBox="0 0 1600 900" preserveAspectRatio="xMidYMid slice">' +
    '<circle cx="1300" cy="150" r="260" fill="#ffffff" fill-opacity="0.08"/>' +
    '<circle cx="250" cy="780" r="340" fill="#ffffff" fill-opacity="0.06"/>' +
    '<circle cx="900" cy="520" r="120" fill="#ffffff" fill-opacity="0.07"/></svg>',
);

export interface LoginBackground {
  name: string;
  css: string;
}

export const LOGIN_BACKGROUNDS: LoginBackground[] = [
  {
    name: 'dusk-waves',
    css: `${waves} bottom / 100% 100% no-repeat, linear-gradient(135deg, #1e3a8a 0%, #6d28d9 100%)`,
  },
  {
    name: 'teal-dots',
    css: `${dots} repeat, linear-gradient(160deg, #0f766e 0%, #0e7490 55%, #1e40af 100%)`,
  },
  { name: 'slate-grid', css: `${grid} repeat, radial-gradient(circle at 30% 20%, #334155 0%, #0f172a 70%)` },
  {
    name: 'sunset-circles',
    css: `${circles} center / cover no-repeat, linear-gradient(120deg, #be123c 0%, #ea580c 60%, #f59e0b 100%)`,
  },
];

export function pickBackground(random: () => number = Math.random): LoginBackground {
  return LOGIN_BACKGROUNDS[Math.floor(random() * LOGIN_BACKGROUNDS.length) % LOGIN_BACKGROUNDS.length];
}
