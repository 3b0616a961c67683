import { afterAll, beforeAll, expect, test } from 'vitest';
import { openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

let stack: Stack;
beforeAll(async () => {
  // Shortened limit: the prompt opens 130 s before a 150 s limit, so every dial colour is reached.
  stack = await startStack({ idleLimitSeconds: 150, idlePromptSeconds: 130 });
});
afterAll(() => stack?.close());

test('the idle guard prompts with a colour-changing countdown, then locks the screen', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await page.clock.install();
    await openDemoAsAdmin(page, stack.baseUrl);

    await page.clock.fastForward(25_000);
    const prompt = page.getByTestId('idle-prompt');
    await prompt.waitFor();
    const dial = page.getByTestId('idle-dial');
    const colourAt = async () => dial.getAttribute('data-color');
    const first = await colourAt();

    await page.clock.fastForward(20_000); // about 105 s left
    const second = await colourAt();
    await page.clock.fastForward(50_000); // about 55 s left
    const third = await colourAt();
    await page.clock.fastForward(30_000); // about 25 s left
    const fourth = await colourAt();
    await screenshot(page, 'idle-prompt');
    expect(new Set([first, second, third, fourth]).size).toBe(4);

    await page.clock.fastForward(30_000);
    await page.getByTestId('idle-locked').waitFor();
    await screenshot(page, 'idle-locked');
  } finally {
    await close();
  }
});

test('activity during the prompt keeps the session', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await page.clock.install();
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.clock.fastForward(25_000);
    await page.getByTestId('idle-stay').click();
    await expect(page.getByTestId('idle-prompt').isVisible()).resolves.toBe(false);
    await page.clock.fastForward(15_000);
    await expect(page.getByTestId('idle-prompt').count()).resolves.toBe(0);
    await expect(page.getByTestId('idle-locked').count()).resolves.toBe(0);
  } finally {
    await close();
  }
});
