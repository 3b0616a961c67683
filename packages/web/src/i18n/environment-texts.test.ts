// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import en from './en.json';
import { applyEnvironmentTexts } from './environment-texts';
import { i18n } from './index';

const t = (key: string) => i18n.getFixedT('en')(key);

describe('an environment’s own texts over the catalogue', () => {
  it('replace the catalogue’s, a locale’s own after its language’s, and go with the next environment', async () => {
    await applyEnvironmentTexts('en', [
      { locale: 'en', key: 'common.cancel', value: 'Stop' },
      { locale: 'en', key: 'common.close', value: 'Shut' },
      { locale: 'en_GB', key: 'common.close', value: 'Close it' },
    ]);
    expect([t('common.cancel'), t('common.close'), t('common.back')]).toEqual(['Stop', 'Close it', 'Back']);

    // another environment: only its own texts
    await applyEnvironmentTexts('en', [{ locale: 'en', key: 'common.back', value: 'Return' }]);
    expect([t('common.cancel'), t('common.close'), t('common.back')]).toEqual(['Cancel', 'Close', 'Return']);

    // none: the catalogue as written, which the texts never changed
    await applyEnvironmentTexts('en', []);
    expect(t('common.back')).toBe('Back');
    expect(en.common).toMatchObject({ cancel: 'Cancel', close: 'Close', back: 'Back' });
  });
});
