import { Alert, Box, Button, Fieldset, Grid, Group, NavLink, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useTokenData } from '../auth/session';
import { dossierKeys, fetchAbilities } from './dossier-api';
import { DossierForm } from './dossier-form';
import { ExistingMatchesModal } from './existing-matches-modal';
import { hasChanges } from './form-logic';
import { knownUsers } from './known-users';
import { LeaveModal, useLeaveGuard } from './leave-guard';
import { PageError, PageLoading } from './page-states';
import { dateItems, RepeatModal } from './repeat-modal';
import { useEntityNames } from './use-entity-layout';
import { useFieldSources } from './use-field-sources';
import { useNewDossierForm } from './use-new-dossier-form';

// /contentdossier/create/{id}: the form of a new dossier of entity {id}. Add goes to the new
// dossier; Add and continue (setting add_continue, or the multi-add variant ?multiAdd=1) empties the
// form for the next one. Leaving with unsaved changes asks first.

const CONTINUE_ALERT_MS = 5000;
const CONTINUE_RELOAD_MS = 500;

export function DossierCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const defDossier = Number(useParams().id);
  const multiAdd = useSearchParams()[0].get('multiAdd') === '1';
  const token = useTokenData();
  const names = useEntityNames(defDossier);
  const wide = useMediaQuery('(min-width: 577px)');
  const abilities = useQuery({
    queryKey: dossierKeys.abilities(defDossier),
    queryFn: ({ signal }) => fetchAbilities(defDossier, signal),
    enabled: defDossier > 0,
  });
  const [continued, setContinued] = useState(false);
  const [repeating, setRepeating] = useState(false);
  const leave = (to: string) => {
    guard.allowLeaving();
    navigate(to);
  };
  const continueAfterSave = useRef(false);
  const seriesSaved = useRef(false);
  const { layout, loading, error, sections, items, start, values, setValues, submitter, formProps } =
    useNewDossierForm(defDossier, (id) => {
      if (!continueAfterSave.current) return leave(`/contentdossier/${id}`);
      setContinued(true);
      setValues({});
      window.scrollTo(0, 0);
      setTimeout(() => setValues(start), CONTINUE_RELOAD_MS);
      setTimeout(() => setContinued(false), CONTINUE_ALERT_MS);
    });
  const me = useMemo(
    () => knownUsers(token ? { id: token.user_id, username: token.username } : null),
    [token],
  );
  const sources = useFieldSources(layout.options, me);
  const guard = useLeaveGuard(hasChanges(items, start, values));

  useEffect(() => {
    const previous = document.title;
    document.title = t('dossier.new_title', { name: names.singular || names.name });
    return () => {
      document.title = previous;
    };
  }, [t, names.singular, names.name]);

  if (abilities.error) return <PageError error={abilities.error} />;
  if (error) return <PageError error={error} />;
  if (loading || abilities.isPending) return <PageLoading />;
  const typeName = names.singular || names.name;
  const title = t('dossier.new_title', { name: typeName });
  const overview = `/defdossier/${defDossier}`;
  const addContinue = layout.settings.addContinue || multiAdd;
  const submit = (next: boolean) => {
    continueAfterSave.current = next;
    void submitter.submit(values);
  };

  if (!abilities.data.canCreate)
    return (
      <Alert color="red" m="md" data-testid="dossier-not-allowed">
        {t('403_general_message')}
      </Alert>
    );

  const form = (
    <Stack gap="lg">
      {sections.map(({ tab, items: sectionItems }, index) => (
        <Fieldset
          key={tab.id}
          id={`create-section-${tab.id}`}
          legend={
            tab.name || (index === 0 ? t('dossier.main_tab') : t('dossier.tab_fallback', { n: index + 1 }))
          }
          data-testid={`create-section-${tab.id}`}
        >
          <DossierForm
            items={sectionItems}
            {...formProps}
            sources={sources}
            testId={`create-form-${tab.id}`}
          />
        </Fieldset>
      ))}
    </Stack>
  );
  const sidebar = layout.settings.layoutSidebar && wide && sections.length > 0;

  return (
    <Stack p="md" gap="md" data-testid="dossier-create-page">
      <Group justify="space-between">
        <Title order={1} size="h2" data-testid="dossier-create-title">
          {title}
        </Title>
        <Button
          component={Link}
          to={overview}
          variant="subtle"
          leftSection={<IconArrowLeft size={16} />}
          data-testid="dossier-back-overview"
        >
          {t('dossier.back_to_overview')}
        </Button>
      </Group>
      {multiAdd ? (
        <Alert color="blue" icon={<IconInfoCircle size={18} />} data-testid="dossier-multi-add-info">
          {t('dossier.multi_add_info')}
        </Alert>
      ) : null}
      {submitter.forbidden ? (
        <Alert color="red" data-testid="dossier-create-forbidden">
          {t('dossier.not_allowed_create')}
        </Alert>
      ) : null}
      {continued ? (
        <Alert color="green" data-testid="dossier-continue-success">
          {t('dossier_errors.success_create')}
        </Alert>
      ) : null}
      {!layout.configured ? (
        <Alert color="yellow" data-testid="dossier-no-form">
          {t('dossier.no_form')}
        </Alert>
      ) : sidebar ? (
        <Grid>
          <Grid.Col span={3}>
            <Box pos="sticky" top={16} data-testid="dossier-create-sidebar">
              {sections.map(({ tab }, index) => (
                <NavLink
                  key={tab.id}
                  href={`#create-section-${tab.id}`}
                  label={
                    tab.name ||
                    (index === 0 ? t('dossier.main_tab') : t('dossier.tab_fallback', { n: index + 1 }))
                  }
                />
              ))}
            </Box>
          </Grid.Col>
          <Grid.Col span={9}>{form}</Grid.Col>
        </Grid>
      ) : (
        form
      )}
      {layout.configured && items.length === 0 ? <Text c="dimmed">{t('dossier.no_fields')}</Text> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => navigate(overview)} data-testid="dossier-create-cancel">
          {t('common.cancel')}
        </Button>
        {dateItems(items).length > 0 ? (
          <Button
            variant="light"
            onClick={() => setRepeating(true)}
            disabled={!layout.configured}
            data-testid="dossier-repeat"
          >
            {t('series.open')}
          </Button>
        ) : null}
        {addContinue ? (
          <Button
            variant="light"
            onClick={() => submit(true)}
            loading={submitter.saving}
            disabled={!layout.configured}
            data-testid="dossier-add-continue"
          >
            {t('dossier.add_continue')}
          </Button>
        ) : null}
        <Button
          onClick={() => submit(false)}
          loading={submitter.saving}
          disabled={!layout.configured}
          data-testid="dossier-add"
        >
          {t('dossier.add')}
        </Button>
      </Group>
      <ExistingMatchesModal
        duplicates={submitter.duplicates}
        onClose={submitter.closeDuplicates}
        onIgnore={() => void submitter.submit(values, true)}
        onUse={(id) => leave(`/contentdossier/${id}`)}
        saving={submitter.saving}
      />
      <RepeatModal
        opened={repeating}
        defDossier={defDossier}
        items={items}
        conditions={layout.settings.conditions}
        values={values}
        onClose={() => {
          setRepeating(false);
          if (seriesSaved.current) leave(overview);
        }}
        onSaved={() => {
          seriesSaved.current = true;
        }}
      />
      <LeaveModal opened={guard.blocked} name={typeName} onStay={guard.stay} onLeave={guard.leave} />
    </Stack>
  );
}
