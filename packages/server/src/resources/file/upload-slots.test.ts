import { describe, expect, test } from 'vitest';
import { UploadSlots } from './upload-slots';

describe('UploadSlots', () => {
  test('bounds uploads per user and per server, and gives each slot back once', () => {
    const slots = new UploadSlots(4, 2);
    const a1 = slots.acquire(1);
    const a2 = slots.acquire(1);
    expect(a1 && a2).toBeTruthy();
    expect(slots.acquire(1)).toBeNull(); // user 1 has 2
    const b1 = slots.acquire(2);
    const c1 = slots.acquire(3);
    expect(b1 && c1).toBeTruthy();
    expect(slots.acquire(4)).toBeNull(); // the server has 4
    a1?.();
    a1?.(); // a second release gives nothing more back
    expect(slots.acquire(1)).toBeTruthy();
    expect(slots.acquire(4)).toBeNull();
    b1?.();
    expect(slots.acquire(4)).toBeTruthy();
  });
});
