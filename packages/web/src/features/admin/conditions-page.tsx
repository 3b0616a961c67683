import {
  type Condition,
  type ConditionAction,
  type ConditionRule,
  conditionsSchema,
  type DisplayItem,
  parseConditions,
  valueRefsOf,
} from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  TagsInput,
  Text,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { isApiError } from '../../api/client';
import { notifySuccess } from '../../api/errors';
import { useLocale } from '../../app/locale-provider';
import { NotFoundPage } from '../../app/not-found-page';
import { translateMessage } from '../../i18n/messages';
import {
  entityName,
  patchItem,
  pickTranslation,
  useDisplayItems,
  useEntity,
  useListOptions,
} from './admin-api';
import { formError, useAdminMutation } from './admin-form';
import { AdminOnly } from './admin-guard';
import { itemLabel } from './designer/item-label';
import { DESIGNER_VIEWS } from './grid';
import { fieldTypeLabel } from './labels';

export function ConditionsPage() {
  return (
    <AdminOnly>
      <Conditions />
    </AdminOnly>
  );
}

/** Rule fields without a field chosen are left out before the conditions are checked and saved. */
const schema = z.object({
  conditions: z.preprocess(
    (conditions: Condition[]) =>
      conditions.map((condition) => ({
        ...condition,
        rules: condition.rules.map((rule) => ({
          ...rule,
          fields: rule.fields.filter((field) => field.field !== ''),
        })),
      })),
    conditionsSchema,
  ),
});
type Values = z.input<typeof schema>;
type Saved = z.output<typeof schema>;

/** The first message among a nested value's errors (a condition's), translated. */
function firstMessage(node: unknown, t: TFunction): string | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const own = (node as { message?: unknown }).message;
  if (typeof own === 'string') return translateMessage(t, own);
  for (const child of Object.values(node)) {
    const found = firstMessage(child, t);
    if (found) return found;
  }
  return undefined;
}

const emptyRule = (): ConditionRule => ({
  type: 'and',
  fields: [{ field: '', field_method: 'equals', values: [] }],
});
const emptyCondition = (): Condition => ({
  id: crypto.randomUUID(),
  rules: [emptyRule()],
  actions: [{ type: 'show_fields', values: [] }],
});

function Conditions() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const id = Number(useParams().id);
  const { data: entity, isLoading, error: entityError } = useEntity(id);
  const { data: allItems = [] } = useDisplayItems(id);
  const form = useForm<Values, unknown, Saved>({
    resolver: zodResolver(schema),
    defaultValues: { conditions: [] },
  });
  const conditions = form.watch('conditions');
  const setConditions = (update: (all: Condition[]) => Condition[]) =>
    form.setValue('conditions', update(form.getValues('conditions')), { shouldDirty: true });

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the entity (re)loads
  useEffect(() => {
    form.reset({ conditions: parseConditions(entity?.settings?.conditions) });
  }, [entity]);

  const items = allItems.filter((item) => (DESIGNER_VIEWS as readonly string[]).includes(item.view));
  const itemOptions = items.map((item) => ({
    value: String(item.id),
    label: `${itemLabel(item, locale)} (#${item.id})`,
  }));
  const fieldItems = items.filter((item) => item.def_dossier_def_field);

  const update = (index: number, next: Condition) =>
    setConditions((all) => all.map((condition, i) => (i === index ? next : condition)));

  const save = useAdminMutation(
    form,
    (values: Saved) =>
      patchItem('defdossier', id, {
        settings: { ...(entity?.settings ?? {}), conditions: values.conditions },
      }),
    { onSuccess: () => notifySuccess(t('admin.saved')) },
  );
  const message = formError(form) ?? firstMessage(form.formState.errors.conditions, t);

  if (isApiError(entityError, 404)) return <NotFoundPage />;
  if (isLoading) return <Loader />;
  return (
    <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
      <Stack data-testid="conditions-page">
        <Group justify="space-between">
          <Title order={1} size="h3">
            {t('admin.conditions.title')}: {entityName(entity, locale)}
          </Title>
          <Button size="xs" variant="default" component={Link} to={`/fieldeditor/${id}`}>
            {t('admin.designer.title')}
          </Button>
        </Group>
        {message && (
          <Alert color="red" data-testid="form-error">
            {message}
          </Alert>
        )}
        {conditions.length === 0 && <Text c="dimmed">{t('admin.conditions.none')}</Text>}
        {conditions.map((condition, index) => (
          <Paper key={condition.id ?? index} withBorder p="md" data-testid={`condition-${index}`}>
            <Stack>
              <Group justify="space-between">
                <Text fw={600}>
                  {t('admin.conditions.condition')} {index + 1}
                </Text>
                <ActionIcon
                  color="red"
                  variant="subtle"
                  onClick={() => setConditions((all) => all.filter((_, i) => i !== index))}
                  aria-label={t('admin.delete')}
                  data-testid={`condition-delete-${index}`}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
              <Text size="sm" fw={500}>
                {t('admin.conditions.rules')}
              </Text>
              {condition.rules.map((rule, ruleIndex) => (
                <RuleEditor
                  // biome-ignore lint/suspicious/noArrayIndexKey: rules have no id of their own
                  key={ruleIndex}
                  testId={`condition-${index}-rule-${ruleIndex}`}
                  rule={rule}
                  fieldItems={fieldItems}
                  onChange={(next) =>
                    update(index, {
                      ...condition,
                      rules: condition.rules.map((r, i) => (i === ruleIndex ? next : r)),
                    })
                  }
                  onRemove={() =>
                    update(index, { ...condition, rules: condition.rules.filter((_, i) => i !== ruleIndex) })
                  }
                />
              ))}
              <Button
                size="compact-xs"
                variant="subtle"
                leftSection={<IconPlus size={12} />}
                onClick={() => update(index, { ...condition, rules: [...condition.rules, emptyRule()] })}
                w="fit-content"
              >
                {t('admin.conditions.add_rule')}
              </Button>
              <Text size="sm" fw={500}>
                {t('admin.conditions.actions')}
              </Text>
              {condition.actions.map((action, actionIndex) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: actions have no id of their own
                <Group key={actionIndex} align="flex-end" wrap="nowrap">
                  <Select
                    w={200}
                    label={t('admin.conditions.action_type')}
                    data={[
                      { value: 'show_fields', label: t('admin.conditions.show_fields') },
                      { value: 'require_fields', label: t('admin.conditions.require_fields') },
                    ]}
                    value={action.type}
                    onChange={(next) =>
                      update(index, {
                        ...condition,
                        actions: condition.actions.map((a, i) =>
                          i === actionIndex
                            ? { ...a, type: (next ?? 'show_fields') as ConditionAction['type'] }
                            : a,
                        ),
                      })
                    }
                    data-testid={`condition-${index}-action-${actionIndex}-type`}
                  />
                  <MultiSelect
                    style={{ flex: 1 }}
                    label={t('admin.conditions.items')}
                    data={itemOptions}
                    searchable
                    value={action.values.map(String)}
                    onChange={(next) =>
                      update(index, {
                        ...condition,
                        actions: condition.actions.map((a, i) =>
                          i === actionIndex ? { ...a, values: next.map(Number) } : a,
                        ),
                      })
                    }
                    data-testid={`condition-${index}-action-${actionIndex}-items`}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mb={6}
                    onClick={() =>
                      update(index, {
                        ...condition,
                        actions: condition.actions.filter((_, i) => i !== actionIndex),
                      })
                    }
                    aria-label={t('admin.delete')}
                  >
                    <IconTrash size={14} />
                  </ActionIcon>
                </Group>
              ))}
              <Button
                size="compact-xs"
                variant="subtle"
                leftSection={<IconPlus size={12} />}
                onClick={() =>
                  update(index, {
                    ...condition,
                    actions: [...condition.actions, { type: 'show_fields', values: [] }],
                  })
                }
                w="fit-content"
              >
                {t('admin.conditions.add_action')}
              </Button>
            </Stack>
          </Paper>
        ))}
        <Group justify="space-between">
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => setConditions((all) => [...all, emptyCondition()])}
            data-testid="condition-add"
          >
            {t('admin.conditions.add')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="conditions-save">
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function RuleEditor({
  rule,
  fieldItems,
  onChange,
  onRemove,
  testId,
}: {
  rule: ConditionRule;
  fieldItems: DisplayItem[];
  onChange: (rule: ConditionRule) => void;
  onRemove: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  return (
    <Paper withBorder p="xs" bg="var(--mantine-color-gray-0)" data-testid={testId}>
      <Stack gap="xs">
        <Group justify="space-between">
          <SegmentedControl
            size="xs"
            value={rule.type}
            onChange={(next) => onChange({ ...rule, type: next as ConditionRule['type'] })}
            data={[
              { value: 'and', label: t('admin.conditions.all_match') },
              { value: 'or', label: t('admin.conditions.any_match') },
            ]}
          />
          <ActionIcon variant="subtle" color="red" onClick={onRemove} aria-label={t('admin.delete')}>
            <IconTrash size={14} />
          </ActionIcon>
        </Group>
        {rule.fields.map((field, index) => {
          const item = fieldItems.find((entry) => String(entry.id) === String(field.field));
          const set = (next: Partial<typeof field>) =>
            onChange({ ...rule, fields: rule.fields.map((f, i) => (i === index ? { ...f, ...next } : f)) });
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: rule fields have no id of their own
            <Group key={index} align="flex-end" wrap="nowrap">
              <Select
                w={220}
                label={t('admin.data_field.title')}
                searchable
                data={fieldItems.map((entry) => ({
                  value: String(entry.id),
                  label: `${itemLabel(entry, locale)} (${fieldTypeLabel(t, entry.def_dossier_def_field?.def_field.type ?? '')})`,
                }))}
                value={field.field === '' ? null : String(field.field)}
                onChange={(next) => set({ field: next ? Number(next) : '', values: [] })}
                data-testid={`${testId}-field-${index}`}
              />
              <Select
                w={140}
                label={t('admin.conditions.method')}
                data={[
                  { value: 'equals', label: t('admin.conditions.equals') },
                  { value: 'notequals', label: t('admin.conditions.notequals') },
                ]}
                value={field.field_method}
                onChange={(next) => set({ field_method: next === 'notequals' ? 'notequals' : 'equals' })}
                data-testid={`${testId}-method-${index}`}
              />
              <RuleValues
                item={item}
                values={field.values}
                onChange={(values) => set({ values })}
                testId={`${testId}-values-${index}`}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mb={6}
                onClick={() => onChange({ ...rule, fields: rule.fields.filter((_, i) => i !== index) })}
                aria-label={t('admin.delete')}
              >
                <IconTrash size={14} />
              </ActionIcon>
            </Group>
          );
        })}
        <Button
          size="compact-xs"
          variant="subtle"
          w="fit-content"
          leftSection={<IconPlus size={12} />}
          onClick={() =>
            onChange({ ...rule, fields: [...rule.fields, { field: '', field_method: 'equals', values: [] }] })
          }
        >
          {t('admin.conditions.add_field')}
        </Button>
      </Stack>
    </Paper>
  );
}

type RuleValue = string | number | boolean | null;

function RuleValues({
  item,
  values,
  onChange,
  testId,
}: {
  item?: DisplayItem;
  values: RuleValue[];
  onChange: (values: RuleValue[]) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const base = item?.def_dossier_def_field?.def_field;
  const isList = !!base && valueRefsOf(base.type) === 'options';
  const { data: options = [] } = useListOptions(isList ? base.id : 0);
  if (isList) {
    return (
      <MultiSelect
        style={{ flex: 1 }}
        label={t('admin.conditions.values')}
        data={options.map((option) => ({
          value: String(option.id),
          label: pickTranslation(option.translations, locale)?.text ?? `#${option.id}`,
        }))}
        value={values.map(String)}
        onChange={(next) => onChange(next.map(Number))}
        data-testid={testId}
      />
    );
  }
  return (
    <TagsInput
      style={{ flex: 1 }}
      label={t('admin.conditions.values')}
      value={values.map((value) => String(value ?? ''))}
      onChange={onChange}
      data-testid={testId}
    />
  );
}
