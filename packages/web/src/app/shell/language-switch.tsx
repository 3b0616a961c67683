import { Button, Menu } from '@mantine/core';
import { IconCheck, IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useEnvironment } from '../../features/environments/environment-store';
import { LOCALE_NAMES } from '../locale';
import { LocaleFlag } from '../locale-flag';
import { useLocale } from '../locale-provider';

export function LanguageSwitch() {
  const { t } = useTranslation();
  const { locale, available, setLocale } = useLocale();
  const environment = useEnvironment();
  const nameOf = (code: string) =>
    environment?.locales?.find((l) => l.code === code)?.name || LOCALE_NAMES[code] || code;

  const short = locale ? locale.slice(0, 2).toUpperCase() : '…';
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          size="compact-md"
          leftSection={locale ? <LocaleFlag locale={locale} /> : null}
          rightSection={<IconChevronDown size={14} />}
          // the name starts with the visible code (WCAG 2.5.3, label in name)
          aria-label={`${short} ${t('locale.switch')}`}
          data-testid="language-switch"
          data-locale={locale ?? ''}
        >
          {short}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {available.map((code) => (
          <Menu.Item
            key={code}
            leftSection={<LocaleFlag locale={code} />}
            rightSection={code === locale ? <IconCheck size={14} /> : null}
            onClick={() => setLocale(code)}
            data-testid={`language-option-${code}`}
          >
            {nameOf(code)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
