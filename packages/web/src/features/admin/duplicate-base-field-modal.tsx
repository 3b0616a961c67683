import { type DefDossierDefField, type DefField, idSchema, REQUIRED_MESSAGE } from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, List, Progress, ScrollArea, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { isApiError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { useLocale } from '../../app/locale-provider';
import { translateMessage } from '../../i18n/messages';
import { adminKeys, entityName, listAll, putItem, useEntities, useEnvironmentId } from './admin-api';
import { formError, useAdminMutation } from './admin-form';
import { AdminModal } from './admin-modal';
import { copyTargets } from './duplicate-targets';
import { FormIdChecks } from './form-controls';

const schema = z.object({ chosen: z.array(idSchema).min(1, REQUIRED_MESSAGE) });
type Values = z.infer<typeof schema>;
type Outcome = { changed: number; failed: { label: string; message: string }[] };

/** The spec's pause between the success alert and the modal closing. */
const CLOSE_AFTER_MS = 600;

/**
 * "Duplicate base field": copies the base field onto data fields of the same type that the admin
 * chooses, on any entity (one PUT per field, sending this base field as defField). Only fields that
 * the server reports as changed count as done; the ones it refuses are listed with its reason.
 */
export function DuplicateModal({
  opened,
  onClose,
  field,
  currentEntity,
}: {
  opened: boolean;
  onClose: () => void;
  field: DefField;
  currentEntity?: number;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const environment = useEnvironmentId();
  const { data: entities = [] } = useEntities();
  const query = { environment, type: field.type, limit: 500 };
  const { data: sameType = [] } = useQuery({
    queryKey: adminKeys.list('defdossierdeffield', query),
    queryFn: ({ signal }) => listAll<DefDossierDefField>('defdossierdeffield', query, signal),
    enabled: opened && environment > 0,
  });
  const targets = copyTargets(
    field,
    sameType,
    (id) =>
      entityName(
        entities.find((entity) => entity.id === id),
        locale,
      ),
    currentEntity,
  );
  const [done, setDone] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { chosen: [] } });
  const chosen = form.watch('chosen');

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when opened
  useEffect(() => {
    if (!opened) return;
    form.reset({ chosen: [] });
    setDone(0);
    setOutcome(null);
  }, [opened]);

  const copy = useAdminMutation(
    form,
    async ({ chosen: ids }: Values): Promise<Outcome> => {
      setDone(0);
      setOutcome(null);
      const result: Outcome = { changed: 0, failed: [] };
      for (const id of ids) {
        const label = targets.find((target) => target.id === id)?.label ?? `#${id}`;
        try {
          const saved = await putItem<DefDossierDefField>('defdossierdeffield', id, { defField: field.id });
          if (saved.def_field.id === field.id) result.changed += 1;
          else result.failed.push({ label, message: t('common.something_went_wrong') });
        } catch (error) {
          const reason = isApiError(error) ? error.fieldErrors?.defField : undefined;
          result.failed.push({
            label,
            message: reason ? translateMessage(t, reason) : errorMessage(error, t),
          });
        }
        setDone((count) => count + 1);
      }
      return result;
    },
    {
      onSuccess: (result) => {
        setOutcome(result);
        form.reset({ chosen: [] });
        if (result.failed.length === 0) setTimeout(onClose, CLOSE_AFTER_MS);
      },
    },
  );

  return (
    <AdminModal
      opened={opened}
      onClose={onClose}
      title={t('admin.base_field.duplicate')}
      testId="duplicate-modal"
      onSubmit={form.handleSubmit((values) => copy.mutate(values))}
      pending={copy.isPending}
      error={formError(form)}
      saveTestId="duplicate-save"
      saveDisabled={chosen.length === 0}
    >
      <Text size="sm">{t('admin.base_field.duplicate_help')}</Text>
      {targets.length > 0 ? (
        <ScrollArea.Autosize mah={150}>
          <Stack gap="xs" data-testid="duplicate-targets">
            <FormIdChecks
              control={form.control}
              name="chosen"
              items={targets.map((target) => ({
                id: target.id,
                label: target.label,
                tooltip: target.entityName,
                testId: `duplicate-target-${target.id}`,
              }))}
            />
          </Stack>
        </ScrollArea.Autosize>
      ) : (
        !outcome && (
          <Text size="sm" c="dimmed" data-testid="duplicate-none">
            {t('admin.base_field.duplicate_none')}
          </Text>
        )
      )}
      {copy.isPending && (
        <Progress
          value={copy.variables?.chosen.length ? (done / copy.variables.chosen.length) * 100 : 100}
          data-testid="duplicate-progress"
        />
      )}
      {outcome && outcome.changed > 0 && (
        <Alert color="green" title={t('admin.saved')} data-testid="duplicate-success">
          {t('admin.base_field.duplicate_done', { count: outcome.changed })}
        </Alert>
      )}
      {outcome && outcome.failed.length > 0 && (
        <Alert color="red" data-testid="duplicate-failed">
          {t('admin.base_field.duplicate_failed')}
          <List size="sm">
            {outcome.failed.map((failure) => (
              <List.Item key={failure.label}>
                {failure.label}: {failure.message}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </AdminModal>
  );
}
