import { describe, expect, it } from 'vitest';
import { openerFor } from '../../../src/report/open-report.js';

describe('openerFor', () => {
  it('opens only where someone can look: never in CI, never on Linux without a display', () => {
    expect(openerFor('linux', { DISPLAY: ':0' })).toBe('xdg-open');
    expect(openerFor('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBe('xdg-open');
    expect(openerFor('linux', {})).toBeUndefined();
    expect(openerFor('darwin', {})).toBe('open');
    expect(openerFor('darwin', { CI: 'true' })).toBeUndefined();
    expect(openerFor('linux', { DISPLAY: ':0', CI: '1' })).toBeUndefined();
    expect(openerFor('linux', { DISPLAY: ':0', CI: 'false' })).toBe('xdg-open');
  });
});
