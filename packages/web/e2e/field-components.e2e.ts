import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildDataField, buildDefField, buildDisplayItem } from '../../server/test/entity-factories';
import { buildEveryTypeEntity, type EveryTypeEntity, insertDossiers } from './dossier-fixture';
import { openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

// The richer field editors in a real page (the create and detail pages): Tiptap rich text, the
// signature pad, file upload with previews, the geolocation map, QR codes and barcodes.

let stack: Stack;
let fixture: EveryTypeEntity;
const extra: Record<string, number> = {}; // display item ids of the fields added here

// A 2x2 red PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  stack = await startStack();
  fixture = await buildEveryTypeEntity(stack.db, 'Gadget');
  const env = fixture.environmentId;
  // Attachment previews images at once; a signature field and a Code 128 field beside the fixture's.
  // Amounts in dollars; birth dates up to today with the age slider in searches.
  await setSettings('Attachment', { file_preview: true, preview_direct: true, preview_width: 120 });
  await setSettings('Amount', { valueType: 'currency', currency: 'USD', decimals: 2 });
  await setSettings('Birth date', { restriction: 'before_and_eq_current_date', show_slider: true });
  let rank = 100;
  for (const [name, type, settings] of [
    ['Signature', 'file', { signature: true }],
    ['Barcode', 'imageCode', { imageType: 'code128' }],
  ] as const) {
    const base = await buildDefField(stack.db, env, { type, name: `Gadget ${name}`, settings });
    const data = await buildDataField(stack.db, fixture.entity, base.id, { name });
    rank += 1;
    const item = await buildDisplayItem(stack.db, fixture.entity, {
      dataFieldId: data.id,
      positionId: fixture.mainPositionId,
      view: 'show/edit',
      rank,
    });
    extra[name] = item.id;
  }
});
afterAll(() => stack?.close());

async function setSettings(field: string, settings: Record<string, unknown>) {
  const data = await stack.db
    .selectFrom('def_dossier_def_field')
    .select('def_field_id')
    .where('id', '=', Number(fixture.fields[field].dataFieldId))
    .executeTakeFirstOrThrow();
  await stack.db.updateTable('def_field').set({ settings }).where('id', '=', data.def_field_id).execute();
}

/** The ISO date `years` years before today (UTC is close enough for whole ages). */
function yearsAgo(years: number): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() - 10);
  return d.toISOString().slice(0, 10);
}

const itemId = (field: string) => extra[field] ?? fixture.fields[field].itemId;
const item = (page: Page, field: string) => page.getByTestId(`dossier-item-${itemId(field)}`);
const shown = (page: Page, field: string) => page.getByTestId(`dossier-value-${itemId(field)}`);

async function canvasInk(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((canvas: HTMLCanvasElement) => {
      const ctx = canvas.getContext('2d');
      if (!ctx) return 0;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && data[i] < 100) dark += 1;
      return dark;
    });
}

test('rich text, signature, file, map, QR code and barcode editors send what the user made', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  // No tiles from the internet in tests: the map must work without them.
  const tileRequests: string[] = [];
  const tiles = /^https:\/\/tile\.openstreetmap\.org\//;
  page.on('request', (r) => {
    if (tiles.test(r.url())) tileRequests.push(r.url());
  });
  await page.route(tiles, (route) => route.abort());
  try {
    await openDemoAsAdmin(page, stack.baseUrl, `/contentdossier/create/${fixture.entity.id}`);
    await page.getByTestId('dossier-create-page').waitFor();

    // Required: the obligatory Name has a red asterisk
    const asterisk = item(page, 'Name').locator('.mantine-InputWrapper-required');
    await asterisk.waitFor();
    // a red dark enough to read (the theme's error colour): red well above green and blue
    const [red, green, blue] = (await asterisk.evaluate((el) => getComputedStyle(el).color))
      .match(/\d+/g)
      ?.map(Number) ?? [0, 0, 0];
    expect(red).toBeGreaterThan(120);
    expect(Math.max(green, blue)).toBeLessThan(red / 3);
    await item(page, 'Name').locator('input').first().fill('Gizmo');

    // Rich text: type, make it bold, link a word
    const editor = item(page, 'Notes').locator('.ProseMirror');
    await editor.click();
    await page.keyboard.type('Hello world');
    await page.keyboard.press('ControlOrMeta+a');
    await item(page, 'Notes').getByTestId('rich-text-bold').click();
    await editor.getByText('Hello world').dblclick({ position: { x: 60, y: 5 } }); // selects "world"
    await item(page, 'Notes').getByTestId('rich-text-link').click();
    const url = page.getByLabel('Link address');
    await url.fill('https://example.com/page');
    await url.press('Enter');
    await editor.locator('a[href="https://example.com/page"]').waitFor();
    expect(await editor.locator('strong').count()).toBeGreaterThan(0);

    // Signature: draw with the mouse, save it (uploaded as signature.png)
    const pad = item(page, 'Signature').getByTestId('signature-canvas');
    await pad.waitFor();
    await pad.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    // the stroke starts where the pad is once the page has settled: hover waits until its box holds
    // still (on a slow machine the drawing once landed beside a pad that was still moving)
    await pad.hover({ position: { x: 30, y: 40 } });
    const box = await pad.boundingBox();
    if (!box) throw new Error('no signature canvas');
    await page.mouse.down();
    for (let i = 1; i <= 20; i++)
      await page.mouse.move(box.x + 30 + i * 12, box.y + 40 + Math.sin(i / 2) * 30);
    await page.mouse.up();
    await expect.poll(() => canvasInk(page, '[data-testid="signature-canvas"]')).toBeGreaterThan(50);
    const signatureUpload = page.waitForRequest(
      (r) => r.url().endsWith('/api/file') && r.method() === 'POST',
    );
    await item(page, 'Signature').getByTestId('signature-save').click();
    const signatureBody = (await signatureUpload).postDataJSON() as { name: string; file: string };
    expect(signatureBody.name).toBe('signature.png');
    expect(signatureBody.file).toMatch(/^data:image\/png;base64,/);
    await item(page, 'Signature').locator('img[alt="signature.png"]').waitFor();
    expect(await item(page, 'Signature').getByText('signature.png').getAttribute('download')).toBe(
      'signature.png',
    );

    // File: upload an image, which is previewed at once (preview_direct)
    await item(page, 'Attachment')
      .locator('input[type="file"]')
      .setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: PNG });
    const preview = item(page, 'Attachment').locator('img[alt="red.png"]');
    await preview.waitFor();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);

    // Geolocation: type coordinates, then drag the marker
    await item(page, 'Location').getByTestId('geolocation-lat').fill('52.370216');
    await item(page, 'Location').getByTestId('geolocation-lng').fill('4.895168');
    const marker = item(page, 'Location').locator('.leaflet-marker-icon');
    await marker.waitFor();
    await marker.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const at = await marker.boundingBox();
    if (!at) throw new Error('no marker');
    await page.mouse.move(at.x + at.width / 2, at.y + at.height - 4);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++)
      await page.mouse.move(at.x + at.width / 2 + i * 8, at.y + at.height - 4 + i * 5);
    await page.mouse.up();
    await expect
      .poll(() => item(page, 'Location').getByTestId('geolocation-lng').inputValue())
      .not.toBe('4.895168');
    const draggedLat = Number(await item(page, 'Location').getByTestId('geolocation-lat').inputValue());
    const draggedLng = Number(await item(page, 'Location').getByTestId('geolocation-lng').inputValue());
    expect(draggedLat).toBeLessThan(52.370216); // dragged down and to the right
    expect(draggedLng).toBeGreaterThan(4.895168);

    // QR code and Code 128 drawn while typing
    await item(page, 'Code').locator('input').first().fill('https://dossierbase.example/42');
    await item(page, 'Code').getByTestId('image-code-qr').waitFor();
    await expect.poll(() => canvasInk(page, '[data-testid="image-code-qr"]')).toBeGreaterThan(500);
    await item(page, 'Barcode').locator('input').first().fill('GADGET-42');
    await expect
      .poll(() => item(page, 'Barcode').locator('[data-testid="image-code-barcode"] rect').count())
      .toBeGreaterThan(10);
    await screenshot(page, 'field-components-create');

    // What the page sends
    const create = page.waitForRequest(
      (r: Request) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/contentdossier',
    );
    await page.getByTestId('dossier-add').click();
    const body = (await create).postDataJSON() as { values: Record<string, unknown> };
    const v = (field: string) => body.values[String(itemId(field))];
    expect(v('Notes')).toContain('<strong>Hello ');
    const link = /<a ([^>]*)><strong>world<\/strong><\/a>/.exec(String(v('Notes')));
    expect(link?.[1]).toContain('href="https://example.com/page"');
    expect(link?.[1]).toContain('rel="noopener noreferrer"');
    expect(typeof v('Signature')).toBe('number');
    expect(typeof v('Attachment')).toBe('number');
    expect(v('Location')).toMatchObject({ lat: draggedLat, lng: draggedLng });
    expect(v('Code')).toBe('https://dossierbase.example/42');
    expect(v('Barcode')).toBe('GADGET-42');

    // The detail page shows them
    await page.waitForURL(/\/contentdossier\/\d+$/);
    await page.getByTestId('dossier-detail-page').waitFor();
    await shown(page, 'Notes').getByTestId('rich-text-display').waitFor();
    await shown(page, 'Signature').locator('img[alt="signature.png"]').waitFor();
    await shown(page, 'Attachment').getByText('red.png').waitFor();
    await shown(page, 'Location').getByTestId('geolocation-map').locator('.leaflet-marker-icon').waitFor();
    await shown(page, 'Code').getByTestId('image-code-qr').waitFor();
    await shown(page, 'Barcode').getByTestId('image-code-barcode').waitFor();
    await screenshot(page, 'field-components-detail');

    // A link in rich text asks before leaving
    await shown(page, 'Notes').locator('a[href="https://example.com/page"]').click();
    await page.getByTestId('rich-text-link-continue').waitFor();
    await screenshot(page, 'field-components-link-confirm');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(new URL(page.url()).pathname).toMatch(/^\/contentdossier\/\d+$/);
    // the map asked for tiles (which failed here) and still showed the marker
    expect(tileRequests.length).toBeGreaterThan(0);
  } finally {
    await close();
  }
});

test('input masks, currency symbol, time limits, date restriction, rich text preview and the age slider', async () => {
  const long = `<p><strong>Start</strong> ${'word '.repeat(120)}<em>end</em></p>`;
  const [withNotes] = await insertDossiers(stack.db, fixture, [{ Name: 'Long notes', Notes: long }]);
  await insertDossiers(stack.db, fixture, [
    { Name: 'Young', 'Birth date': yearsAgo(10) },
    { Name: 'Adult', 'Birth date': yearsAgo(30) },
    { Name: 'Senior', 'Birth date': yearsAgo(70) },
  ]);
  const { page, close } = await openBrowser(stack.baseUrl);
  await page.route(/^https:\/\/tile\.openstreetmap\.org\//, (route) => route.abort());
  try {
    await openDemoAsAdmin(page, stack.baseUrl, `/contentdossier/create/${fixture.entity.id}`);
    await page.getByTestId('dossier-create-page').waitFor();

    // Amount: the dollar sign beside the input, letters filtered out
    expect(await item(page, 'Amount').locator('.mantine-Input-section').first().textContent()).toBe('$');
    const amount = item(page, 'Amount').locator('input').first();
    await amount.pressSequentially('1e2a3,5');
    expect(await amount.inputValue()).toBe('123,5');

    // Time: digits only, an hour above 23 and minutes above 59 are refused as they are typed
    const time = item(page, 'Start time').locator('input').first();
    await time.pressSequentially('2x5345');
    expect(await time.inputValue()).toBe('23:45');
    await time.fill('');
    await time.pressSequentially('0979');
    expect(await time.inputValue()).toBe('09:');

    // Date: the DD-MM-YYYY mask, and the restriction to dates up to today
    const date = item(page, 'Birth date').locator('input').first();
    await date.pressSequentially('01012099');
    expect(await date.inputValue()).toBe('01-01-2099');
    await date.blur();
    await item(page, 'Birth date').getByText('The date may not be after today').waitFor();
    await date.fill('');
    await date.pressSequentially('15061990');
    expect(await date.inputValue()).toBe('15-06-1990');
    await expect
      .poll(() => item(page, 'Birth date').getByText('The date may not be after today').count())
      .toBe(0);

    // Rich text font size (8-48 pt) and family for the selection; the pickers read the selection back
    const editor = item(page, 'Notes').locator('.ProseMirror');
    await editor.click();
    await page.keyboard.type('Big words');
    await page.keyboard.press('ControlOrMeta+a');
    await item(page, 'Notes').getByTestId('rich-text-font-size').click();
    await page.getByRole('option', { name: '24pt', exact: true }).click();
    await editor.locator('span[style*="font-size: 24pt"]').waitFor();
    await item(page, 'Notes').getByTestId('rich-text-font-family').click();
    await page.getByRole('option', { name: 'Georgia', exact: true }).click();
    await editor.locator('span[style*="Georgia"]').waitFor();
    await editor.getByText('Big words').click();
    expect(await item(page, 'Notes').getByTestId('rich-text-font-size').inputValue()).toBe('24pt');
    expect(await item(page, 'Notes').getByTestId('rich-text-font-family').inputValue()).toBe('Georgia');
    await screenshot(page, 'field-components-masks');

    // Long rich text shows a plain preview of about 450 characters with Read more / Read less
    await page.goto(`/contentdossier/${withNotes}`);
    const notes = shown(page, 'Notes');
    await notes.getByTestId('rich-text-read-more').waitFor();
    const preview = (await notes.textContent()) ?? '';
    expect(preview.length).toBeLessThan(480);
    expect(preview).not.toContain('end');
    await notes.getByTestId('rich-text-read-more').click();
    await notes.getByTestId('rich-text-display').locator('em', { hasText: 'end' }).waitFor();
    await notes.getByTestId('rich-text-read-less').click();
    await notes.getByTestId('rich-text-read-more').waitFor();

    // The list's age slider (18-120) on the birth date: 18 to 50 finds only the adult
    await page.goto(`/defdossier/${fixture.entity.id}`);
    await page.getByTestId('dossier-list-page').waitFor();
    // (the dossier of the first scenario, without a birth date, is there too)
    await expect
      .poll(async () => Number(await page.getByTestId('dossier-list-total').getAttribute('data-total')))
      .toBeGreaterThanOrEqual(3);
    await page.getByTestId('dossier-filter-toggle').click();
    const slider = page.locator('[data-search-type="date"]').getByTestId('search-age-slider');
    await slider.waitFor();
    const upper = slider.getByRole('slider').nth(1);
    await upper.focus();
    for (let i = 0; i < 70; i++) await page.keyboard.press('ArrowLeft');
    expect(await upper.getAttribute('aria-valuenow')).toBe('50');
    await page.locator('[data-search-type="date"]').getByText('Age from 18 to 50 years').waitFor();
    await screenshot(page, 'field-components-age-slider');
    await page.getByTestId('dossier-search-submit').click();
    await expect.poll(() => page.getByTestId('dossier-list-total').getAttribute('data-total')).toBe('1');
    await page.getByRole('cell', { name: 'Adult' }).first().waitFor();
  } finally {
    await close();
  }
});
