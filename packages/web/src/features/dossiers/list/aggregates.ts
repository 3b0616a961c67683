import { type AggregationResult, type DisplayItem, parseFieldSettings } from '@dossierbase/core';
import { formatFieldValue, itemSettings, toIntlLocale } from '../../../fields/helpers';
import { columnType } from './list-params';

/** Seconds as H:mm (time sums and averages can pass 24 hours). */
export function secondsToTime(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const sign = minutes < 0 ? '-' : '';
  const abs = Math.abs(minutes);
  return `${sign}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

/** The footer text of one aggregation result, formatted like the column's values. */
export function formatAggregate(item: DisplayItem, result: AggregationResult, locale: string): string {
  const { value } = result;
  if (value === null || value === undefined) return '-';
  const intl = toIntlLocale(locale);
  if (result.aggregate === 'count' || result.aggregate === 'unique')
    return new Intl.NumberFormat(intl).format(Number(value));
  const type = columnType(item);
  if (type === 'time' && typeof value === 'number') return secondsToTime(value);
  if (type === 'amount' && typeof value === 'number') {
    const settings = parseFieldSettings('amount', itemSettings(item));
    // an average has more decimals than the field; round it to the field's
    const rounded = Math.round(value * 10 ** settings.decimals) / 10 ** settings.decimals;
    return formatFieldValue('amount', rounded, settings, intl);
  }
  if ((type === 'date' || type === 'systemdate') && typeof value === 'string')
    return formatFieldValue(type, value, itemSettings(item), intl) || value;
  return typeof value === 'number' ? new Intl.NumberFormat(intl).format(value) : String(value);
}
