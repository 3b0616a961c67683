// @vitest-environment jsdom
import { expect, test } from 'vitest';
import { logValueText } from './log-api';

test('a logged value reads as text: empty as a dash, lists joined, rich text without its markup', () => {
  expect(logValueText(null)).toBe('–');
  expect(logValueText('')).toBe('–');
  expect(logValueText([])).toBe('–');
  expect(logValueText([3, 4])).toBe('3, 4');
  expect(logValueText(12.5)).toBe('12.5');
  expect(logValueText('<p>First <strong>contact</strong><img src=x onerror=alert(1)></p>')).toBe(
    'First contact',
  );
  expect(logValueText('a < b and c > d')).toBe('a < b and c > d');
  expect(logValueText({ street: 'Main' })).toBe('{"street":"Main"}');
});
