import {
  type Condition,
  type DisplayItem,
  FREQUENCIES,
  MAX_SERIES,
  ORDINAL_DAYS,
  ORDINALS,
  type Recurrence,
  recurrenceSchema,
  SERIES_MESSAGES,
  seriesDates,
  seriesProblem,
  WEEKDAYS,
} from '@dossierbase/core';
import {
  Alert,
  Button,
  Chip,
  Group,
  List,
  Modal,
  Progress,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../api/client';
import { errorMessage, notifyFailure } from '../../api/errors';
import { itemLabel, itemSettings } from '../../fields/helpers';
import { useFieldLocale } from '../../fields/shared';
import type { DossierValues } from './dossier-api';
import { dossierMessage } from './dossier-form';
import { requiredErrors, toPayload } from './form-logic';

// The multiple create modal (spec doc 2 sections 2, 4 and 5, "Multiple create"): the values of the
// form once per date of a repeating rule. The dates are previewed before saving; the server creates
// the whole series in one call (POST /api/contentdossier/series), all or nothing.

const SAVED_CLOSE_MS = 2000;
const PREVIEW = 12;

/** A date field's items of the form (the modal's date field choice). */
export const dateItems = (items: readonly DisplayItem[]) =>
  items.filter((item) => item.def_dossier_def_field?.def_field?.type === 'date');

const isoToday = (offset = 0) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
/** The spec's digit fields: digits only, fewer than 4 characters; empty is 0 */
const digits = (text: string) => text.replace(/\D/g, '').slice(0, 3);
const numberOf = (text: string) => Number(text || '0');
const shown = (iso: string) => iso.split('-').reverse().join('-');

interface RepeatModalProps {
  opened: boolean;
  defDossier: number;
  items: readonly DisplayItem[];
  conditions: readonly Condition[];
  values: DossierValues;
  onClose: () => void;
  onSaved: (ids: number[]) => void;
  /** inside an embedded list: every dossier of the series is linked to the parent */
  embedded?: { parentId: number; linkId: number };
}

export function RepeatModal(props: RepeatModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      closeOnClickOutside={false}
      size="lg"
      title={t('series.title')}
      data-testid="repeat-modal"
    >
      {props.opened ? <RepeatForm {...props} /> : null}
    </Modal>
  );
}

function RepeatForm({ defDossier, items, conditions, values, onClose, onSaved, embedded }: RepeatModalProps) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const dates = useMemo(() => dateItems(items), [items]);
  const [dateItem, setDateItem] = useState<string | null>(dates[0] ? String(dates[0].id) : null);
  const [frequency, setFrequency] = useState<Recurrence['frequency']>('daily');
  const [start, setStart] = useState(isoToday());
  const [time, setTime] = useState('09:00');
  const [every, setEvery] = useState('1');
  const [weekdays, setWeekdays] = useState<string[]>([]);
  const [on, setOn] = useState<'day' | 'ordinal'>('day');
  const [day, setDay] = useState('1');
  const [month, setMonth] = useState('1');
  const [ordinal, setOrdinal] = useState('1');
  const [ordinalDay, setOrdinalDay] = useState<string>('MO');
  const [endType, setEndType] = useState<'date' | 'count'>('date');
  const [endDate, setEndDate] = useState(isoToday(1));
  const [count, setCount] = useState('10');
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const item = dates.find((d) => String(d.id) === dateItem);
  const settings = item ? itemSettings(item) : {};
  const withtime = settings.withtime === true;

  const rule = recurrenceSchema.safeParse({
    frequency,
    start,
    time: withtime ? time : undefined,
    interval: numberOf(every),
    weekdays,
    on,
    day: numberOf(day),
    month: numberOf(month),
    ordinal: Number(ordinal),
    ordinalDay,
    end: endType === 'date' ? { type: 'date', date: endDate } : { type: 'count', count: numberOf(count) },
  });
  const problem = rule.success
    ? seriesProblem(rule.data, String(settings.restriction ?? 'none'), isoToday())
    : null;
  const ruleKey = rule.success ? JSON.stringify(rule.data) : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the rule's text stands for the rule
  const preview = useMemo(() => (rule.success && !problem ? seriesDates(rule.data) : []), [ruleKey, problem]);
  const tooMany = preview.length > MAX_SERIES;
  const invalid = !rule.success || problem !== null || preview.length === 0 || tooMany;

  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(onClose, SAVED_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [saved, onClose]);

  const save = async () => {
    if (!rule.success || !item || invalid) return;
    const all = { ...values, [String(item.id)]: start };
    const missing = requiredErrors(items, conditions, all);
    if (Object.keys(missing).length > 0) {
      notifyFailure(t('series.fill_form'));
      return;
    }
    const payload = toPayload(items, conditions, all);
    delete payload[String(item.id)];
    setSaving(true);
    try {
      const { ids } = await api.post<{ ids: number[] }>('/contentdossier/series', {
        defDossier,
        values: payload,
        dateItem: item.id,
        recurrence: rule.data,
        ...(embedded ? { embedded: embedded.parentId, linkId: embedded.linkId } : {}),
      });
      setSaved(true);
      onSaved(ids);
    } catch (error) {
      const fieldErrors = isApiError(error) ? (error.fieldErrors ?? {}) : {};
      const first = Object.values(fieldErrors)[0];
      notifyFailure(first ? dossierMessage(t, first) : errorMessage(error, t));
    } finally {
      setSaving(false);
    }
  };

  const weekdayLabel = (code: string) => t(`series.weekday_${code}`);
  const digitInput = (label: string, value: string, set: (v: string) => void, testId: string) => (
    <TextInput
      label={label}
      value={value}
      inputMode="numeric"
      maxLength={3}
      onChange={(e) => set(digits(e.currentTarget.value))}
      data-testid={testId}
    />
  );

  if (dates.length === 0) return <Alert color="yellow">{dossierMessage(t, SERIES_MESSAGES.notADate)}</Alert>;

  return (
    <Stack data-testid="repeat-form">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('series.date_field')}
          data={dates.map((d) => ({ value: String(d.id), label: itemLabel(d, locale) }))}
          value={dateItem}
          onChange={setDateItem}
          allowDeselect={false}
          data-testid="repeat-date-item"
        />
        <TextInput
          type="date"
          label={t('series.start')}
          value={start}
          onChange={(e) => setStart(e.currentTarget.value)}
          data-testid="repeat-start"
        />
        {withtime ? (
          <TextInput
            type="time"
            label={t('series.time')}
            value={time}
            onChange={(e) => setTime(e.currentTarget.value)}
            data-testid="repeat-time"
          />
        ) : null}
        <Select
          label={t('series.repeat')}
          data={FREQUENCIES.map((f) => ({ value: f, label: t(`series.${f}`) }))}
          value={frequency}
          onChange={(v) => v && setFrequency(v as Recurrence['frequency'])}
          allowDeselect={false}
          data-testid="repeat-frequency"
        />
        {digitInput(t('series.interval'), every, setEvery, 'repeat-interval')}
      </SimpleGrid>
      {frequency === 'weekly' ? (
        <Chip.Group multiple value={weekdays} onChange={setWeekdays}>
          <Group gap="xs" role="group" aria-label={t('series.weekdays')}>
            {WEEKDAYS.map((code) => (
              <Chip key={code} value={code} data-testid={`repeat-weekday-${code}`}>
                {weekdayLabel(code)}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      ) : null}
      {frequency === 'monthly' || frequency === 'yearly' ? (
        <Stack gap="xs">
          <Radio.Group value={on} onChange={(v) => setOn(v as 'day' | 'ordinal')} label={t('series.on')}>
            <Group pt="xs">
              <Radio value="day" label={t('series.on_day')} data-testid="repeat-on-day" />
              <Radio value="ordinal" label={t('series.on_ordinal')} data-testid="repeat-on-ordinal" />
            </Group>
          </Radio.Group>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {on === 'day'
              ? digitInput(t('series.day'), day, setDay, 'repeat-day')
              : [
                  <Select
                    key="ordinal"
                    label={t('series.ordinal')}
                    data={ORDINALS.map((n) => ({ value: String(n), label: t(`series.ordinal_${n}`) }))}
                    value={ordinal}
                    onChange={(v) => v && setOrdinal(v)}
                    allowDeselect={false}
                    data-testid="repeat-ordinal"
                  />,
                  <Select
                    key="ordinal-day"
                    label={t('series.ordinal_day')}
                    data={ORDINAL_DAYS.map((d) => ({ value: d, label: weekdayLabel(d) }))}
                    value={ordinalDay}
                    onChange={(v) => v && setOrdinalDay(v)}
                    allowDeselect={false}
                    data-testid="repeat-ordinal-day"
                  />,
                ]}
            {frequency === 'yearly' ? (
              <Select
                label={t('series.month')}
                data={Array.from({ length: 12 }, (_, i) => ({
                  value: String(i + 1),
                  label: new Intl.DateTimeFormat(locale.replace('_', '-'), { month: 'long' }).format(
                    new Date(2000, i, 1),
                  ),
                }))}
                value={month}
                onChange={(v) => v && setMonth(v)}
                allowDeselect={false}
                data-testid="repeat-month"
              />
            ) : null}
          </SimpleGrid>
        </Stack>
      ) : null}
      <Radio.Group
        value={endType}
        onChange={(v) => setEndType(v as 'date' | 'count')}
        label={t('series.end')}
      >
        <Group pt="xs">
          <Radio value="date" label={t('series.end_date')} data-testid="repeat-end-date" />
          <Radio value="count" label={t('series.end_count')} data-testid="repeat-end-count" />
        </Group>
      </Radio.Group>
      {endType === 'date' ? (
        <TextInput
          type="date"
          label={t('series.end_date')}
          value={endDate}
          onChange={(e) => setEndDate(e.currentTarget.value)}
          data-testid="repeat-end-date-input"
        />
      ) : (
        digitInput(t('series.count'), count, setCount, 'repeat-count')
      )}
      {problem ? (
        <Alert color="red" data-testid="repeat-problem">
          {problem === SERIES_MESSAGES.endDateOutOfRange
            ? t('series.end_date_out_of_range')
            : t('series.end_or_start_date_future')}
        </Alert>
      ) : tooMany ? (
        <Alert color="red" data-testid="repeat-problem">
          {t('series.too_many', { max: MAX_SERIES })}
        </Alert>
      ) : (
        <Stack gap={4} data-testid="repeat-preview" data-count={preview.length}>
          <Text size="sm" fw={500}>
            {t('series.preview', { count: preview.length })}
          </Text>
          <List size="sm">
            {preview.slice(0, PREVIEW).map((d) => (
              <List.Item key={d} data-testid="repeat-preview-date">
                {shown(d)}
              </List.Item>
            ))}
          </List>
          {preview.length > PREVIEW ? (
            <Text size="sm" c="dimmed">
              {t('series.more', { count: preview.length - PREVIEW })}
            </Text>
          ) : null}
        </Stack>
      )}
      {saving ? (
        <Stack gap={4}>
          <Progress value={100} striped animated aria-label={t('series.saving', { count: preview.length })} />
          <Text size="sm" aria-live="polite">
            {t('series.saving', { count: preview.length })}
          </Text>
        </Stack>
      ) : null}
      {saved ? (
        <Alert color="green" data-testid="repeat-saved">
          {t('dossier_errors.success_create')}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={saving} data-testid="repeat-close">
          {t('common.close')}
        </Button>
        <Button
          onClick={() => void save()}
          loading={saving}
          disabled={invalid || saved}
          data-testid="repeat-save"
        >
          {t('series.save')}
        </Button>
      </Group>
    </Stack>
  );
}
