import { type DossierReport, MASS_UPDATE_MESSAGES } from '@dossierbase/core';
import { Alert, Button, Checkbox, Fieldset, Group, List, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { api, isApiError } from '../../api/client';
import { notifyFailure, notifySuccess } from '../../api/errors';
import { useFieldLocale } from '../../fields/shared';
import { useTokenData } from '../auth/session';
import { type DossierValues, dossierKeys, fetchAbilities } from './dossier-api';
import { DossierForm, dossierMessage, focusFirstError } from './dossier-form';
import { detailTabs, isEditable, massUpdateItem, massUpdateValues } from './form-logic';
import { knownUsers } from './known-users';
import { dossierListKeys } from './list/list-api';
import { PageError, PageLoading } from './page-states';
import { positionName, useEntityLayout, useEntityNames } from './use-entity-layout';
import { useFieldSources } from './use-field-sources';

// /defdossier/{id}/massupdate?ids=1,2,3: the same values for the selected dossiers (spec doc 2
// section 2, "Mass update page"). The form is the create form in multi-update mode: no item is
// obligatory, no list or current-time default is filled in, and no condition hides or requires an
// item (section 5); only the values filled in are sent.

export function MassUpdatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const defDossier = Number(useParams().id);
  const idsParam = useSearchParams()[0].get('ids') ?? '';
  const ids = useMemo(
    () =>
      idsParam
        .split(',')
        .map(Number)
        .filter((id) => Number.isInteger(id) && id > 0),
    [idsParam],
  );
  const locale = useFieldLocale();
  const token = useTokenData();
  const names = useEntityNames(defDossier);
  const { layout, loading, error } = useEntityLayout(defDossier);
  const abilities = useQuery({
    queryKey: dossierKeys.abilities(defDossier),
    queryFn: ({ signal }) => fetchAbilities(defDossier, signal),
    enabled: defDossier > 0,
  });
  const [overwrite, setOverwrite] = useState(false);
  const [values, setValues] = useState<DossierValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [report, setReport] = useState<DossierReport[]>([]);
  const [saving, setSaving] = useState(false);
  const me = useMemo(
    () => knownUsers(token ? { id: token.user_id, username: token.username } : null),
    [token],
  );
  const sources = useFieldSources(layout.options, me);
  const sections = useMemo(() => {
    const all = (layout.items ?? []).map(massUpdateItem);
    return detailTabs(layout.positions, all, (p) => positionName(p, locale))
      .map((tab) => ({
        tab,
        items: all.filter((item) => item.display_position_id === tab.id && isEditable(item)),
      }))
      .filter((section) => section.items.length > 0);
  }, [layout.items, layout.positions, locale]);
  const items = useMemo(() => sections.flatMap((s) => s.items), [sections]);
  const typeName = names.name;
  const title = t('mass_update.title', { name: typeName });

  useEffect(() => {
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);

  if (abilities.error) return <PageError error={abilities.error} />;
  if (error) return <PageError error={error} />;
  if (loading || abilities.isPending) return <PageLoading />;
  const overview = `/defdossier/${defDossier}`;
  if (!abilities.data.canMassUpdate || !abilities.data.canEdit)
    return (
      <Alert color="red" m="md" data-testid="mass-update-not-allowed">
        {t('403_general_message')}
      </Alert>
    );
  if (ids.length === 0)
    return (
      <Alert color="yellow" m="md" data-testid="mass-update-no-selection">
        {t('mass_update.no_selection')}
      </Alert>
    );

  const change = (key: string, value: unknown) => {
    setErrors(({ [key]: _, ...rest }) => rest);
    setValues((current) => ({ ...current, [key]: value }));
  };
  const submit = async () => {
    const update_values = massUpdateValues(items, values);
    if (Object.keys(update_values).length === 0) {
      notifyFailure(t('mass_update.nothing'));
      return;
    }
    setSaving(true);
    setReport([]);
    try {
      await api.put('/contentdossier/massupdate', { overwrite, defDossier, update_values, dossier_ids: ids });
      notifySuccess(t('mass_update.done', { count: ids.length }));
      await queryClient.invalidateQueries({ queryKey: dossierListKeys.all });
      navigate(overview);
    } catch (failure) {
      if (isApiError(failure, 403)) notifyFailure(t('dossier_errors.permission_edit'));
      else {
        const body = isApiError(failure) ? (failure.body as { report?: DossierReport[] }) : {};
        const fieldErrors = isApiError(failure) ? (failure.fieldErrors ?? {}) : {};
        const { dossier_ids: _, update_values: __, ...itemErrors } = fieldErrors;
        setErrors(itemErrors);
        setReport(body.report ?? []);
        focusFirstError(items, itemErrors);
        notifyFailure(t('dossier_errors.error_edit'));
      }
    } finally {
      setSaving(false);
    }
  };
  const itemName = (key: string) => {
    const item = items.find((i) => String(i.id) === key);
    return item?.translations?.[0]?.name || key;
  };

  return (
    <Stack p="md" gap="md" data-testid="mass-update-page">
      <Title order={1} size="h2" data-testid="mass-update-title">
        {title}
      </Title>
      <Text data-testid="mass-update-count">{t('mass_update.selected', { count: ids.length })}</Text>
      <Checkbox
        label={t('mass_update.overwrite')}
        description={t('mass_update.overwrite_help')}
        checked={overwrite}
        onChange={(e) => setOverwrite(e.currentTarget.checked)}
        data-testid="mass-update-overwrite"
      />
      {report.length > 0 ? (
        <Alert
          color="red"
          title={dossierMessage(t, MASS_UPDATE_MESSAGES.refused)}
          data-testid="mass-update-report"
        >
          <List size="sm">
            {report.map((r) => (
              <List.Item key={r.id} data-testid="mass-update-report-row">
                {t('dossier_list.bulk.failure', {
                  name: r.summary || `#${r.id}`,
                  reason: Object.entries(r.errors)
                    .map(([key, message]) =>
                      key === 'dossier'
                        ? dossierMessage(t, message)
                        : `${itemName(key)}: ${dossierMessage(t, message)}`,
                    )
                    .join('; '),
                })}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      {sections.map(({ tab, items: sectionItems }, index) => (
        <Fieldset
          key={tab.id}
          legend={
            tab.name || (index === 0 ? t('dossier.main_tab') : t('dossier.tab_fallback', { n: index + 1 }))
          }
        >
          <DossierForm
            items={sectionItems}
            mode="edit"
            values={values}
            onChange={change}
            conditions={[]}
            errors={errors}
            disabled={saving}
            sources={sources}
            testId={`mass-update-form-${tab.id}`}
          />
        </Fieldset>
      ))}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => navigate(overview)} data-testid="mass-update-cancel">
          {t('common.cancel')}
        </Button>
        <Button onClick={() => void submit()} loading={saving} data-testid="mass-update-submit">
          {t('mass_update.update')}
        </Button>
      </Group>
    </Stack>
  );
}
