import {
  ORDER_MAX_ENVIRONMENTS,
  ORDER_MAX_USERS,
  ORDER_MONTHS,
  type Order,
  type OrderStatus,
  type Paged,
  type SubscriptionOverview,
} from '@dossierbase/core';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconInfoCircle, IconShoppingCart } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { api, isApiError } from '../../api/client';
import { actionErrorMessage, callErrors, errorMessage, notifySuccess } from '../../api/errors';
import { formatDate } from '../../app/format';
import { AnswerPager } from '../../app/pager';
import { useTokenData } from '../auth/session';

// The contract admin's subscriptions (issue 16, part 10): /subscriptions shows what the subscriptions
// allow and what is used, with the orders; /upgrade records an order for other limits; /order/{id}
// shows one. No payment is taken in the product: an order is a request the supplier handles.

const ORDER_PAGE_SIZE = 10;

const subscriptionKeys = {
  overview: ['subscription', 'overview'] as const,
  orders: (page: number) => ['subscription', 'orders', page] as const,
  order: (id: number) => ['subscription', 'order', id] as const,
};

const STATUS_COLORS: Record<OrderStatus, string> = {
  requested: 'blue',
  cancelled: 'gray',
  fulfilled: 'green',
};

/** Contract admins only; everybody else sees the 403 message. */
function HolderOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const token = useTokenData();
  if (!token?.abilities?.canHoldSubscriptions) {
    return (
      <Alert color="red" data-testid="subscription-forbidden">
        {t('403_general_message')}
      </Alert>
    );
  }
  return <>{children}</>;
}

/** The plain statement that an order is a request, not a purchase. */
function NoPaymentNote() {
  const { t } = useTranslation();
  return (
    <Alert color="blue" icon={<IconInfoCircle aria-hidden />} data-testid="subscription-no-payment">
      {t('subscriptions.no_payment')}
    </Alert>
  );
}

export function SubscriptionsPage() {
  const { t } = useTranslation();
  return (
    <HolderOnly>
      <Stack maw={960} data-testid="subscriptions-page">
        <Group justify="space-between">
          <Title order={1} size="h3">
            {t('subscriptions.title')}
          </Title>
          <Button
            component={Link}
            to="/upgrade"
            leftSection={<IconShoppingCart size={16} aria-hidden />}
            data-testid="subscriptions-upgrade"
          >
            {t('subscriptions.upgrade')}
          </Button>
        </Group>
        <Overview />
        <Orders />
      </Stack>
    </HolderOnly>
  );
}

function useOverview() {
  return useQuery({
    queryKey: subscriptionKeys.overview,
    queryFn: ({ signal }) => api.get<SubscriptionOverview>('/subscription', undefined, signal),
  });
}

function Usage({
  label,
  used,
  limit,
  testId,
}: {
  label: string;
  used: number;
  limit: number | null;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={600}>
        {limit === null
          ? t('subscriptions.used_no_limit', { used })
          : t('subscriptions.used_of', { used, limit })}
      </Text>
    </Paper>
  );
}

function Overview() {
  const { t } = useTranslation();
  const overview = useOverview();
  if (overview.isPending) return <Loader />;
  if (overview.isError) return <Alert color="red">{errorMessage(overview.error, t)}</Alert>;
  const { subscriptions, limits, usage } = overview.data;
  const running = subscriptions.filter((s) => s.state === 'running');
  const expiry = running.map((s) => s.expires_at).sort()[0];
  return (
    <Stack>
      {running.length === 0 ? (
        <Alert color="orange" data-testid="subscriptions-none-running">
          {subscriptions.some((s) => s.state === 'expired')
            ? t('subscriptions.expired_text')
            : t('subscriptions.none_text')}
        </Alert>
      ) : (
        <Text data-testid="subscriptions-expiry">
          {t('subscriptions.expires_on', { date: formatDate(expiry) })}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Usage
          label={t('subscriptions.environments')}
          used={usage.environments}
          limit={limits.max_environments}
          testId="subscriptions-environments"
        />
        <Usage
          label={t('subscriptions.users')}
          used={usage.users}
          limit={limits.max_users}
          testId="subscriptions-users"
        />
      </SimpleGrid>
      <Title order={2} size="h4">
        {t('subscriptions.list_title')}
      </Title>
      {subscriptions.length === 0 ? (
        <Text c="dimmed">{t('subscriptions.list_empty')}</Text>
      ) : (
        <Table striped data-testid="subscriptions-list">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('subscriptions.starts')}</Table.Th>
              <Table.Th>{t('subscriptions.expires')}</Table.Th>
              <Table.Th>{t('subscriptions.environments')}</Table.Th>
              <Table.Th>{t('subscriptions.users')}</Table.Th>
              <Table.Th>{t('subscriptions.state')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {subscriptions.map((subscription) => (
              <Table.Tr key={subscription.id}>
                <Table.Td>{formatDate(subscription.starts_at)}</Table.Td>
                <Table.Td>{formatDate(subscription.expires_at)}</Table.Td>
                <Table.Td>{subscription.max_environments}</Table.Td>
                <Table.Td>{subscription.max_users ?? t('subscriptions.no_limit')}</Table.Td>
                <Table.Td>
                  <Badge
                    variant="light"
                    color={
                      subscription.state === 'running'
                        ? 'green'
                        : subscription.state === 'upcoming'
                          ? 'blue'
                          : 'gray'
                    }
                  >
                    {t(`subscriptions.states.${subscription.state}`)}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function Orders() {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const orders = useQuery({
    queryKey: subscriptionKeys.orders(page),
    queryFn: ({ signal }) => api.get<Paged<Order>>('/order', { page, limit: ORDER_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
  const results = orders.data?.results ?? [];
  return (
    <Stack>
      <Title order={2} size="h4">
        {t('subscriptions.orders_title')}
      </Title>
      <NoPaymentNote />
      {orders.isPending ? (
        <Loader />
      ) : orders.isError ? (
        <Alert color="red">{errorMessage(orders.error, t)}</Alert>
      ) : results.length === 0 ? (
        <Text c="dimmed" data-testid="subscriptions-orders-empty">
          {t('subscriptions.orders_empty')}
        </Text>
      ) : (
        <Table striped highlightOnHover data-testid="subscriptions-orders">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('subscriptions.order')}</Table.Th>
              <Table.Th>{t('subscriptions.ordered_on')}</Table.Th>
              <Table.Th>{t('subscriptions.environments')}</Table.Th>
              <Table.Th>{t('subscriptions.users')}</Table.Th>
              <Table.Th>{t('subscriptions.months')}</Table.Th>
              <Table.Th>{t('subscriptions.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {results.map((order) => (
              <Table.Tr key={order.id}>
                <Table.Td>
                  <Anchor
                    component={Link}
                    to={`/order/${order.id}`}
                    data-testid={`subscriptions-order-${order.id}`}
                  >
                    {t('subscriptions.order_number', { id: order.id })}
                  </Anchor>
                </Table.Td>
                <Table.Td>{formatDate(order.created_at)}</Table.Td>
                <Table.Td>{order.max_environments}</Table.Td>
                <Table.Td>{order.max_users ?? t('subscriptions.no_limit')}</Table.Td>
                <Table.Td>{order.months}</Table.Td>
                <Table.Td>
                  <StatusBadge status={order.status} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <AnswerPager pager={orders.data?.pager} page={page} onPage={setPage} />
    </Stack>
  );
}

function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={STATUS_COLORS[status]} data-testid="order-status">
      {t(`subscriptions.statuses.${status}`)}
    </Badge>
  );
}

function BackLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/subscriptions" data-testid="subscriptions-back">
      <Group gap={4}>
        <IconArrowLeft size={16} aria-hidden />
        {t('subscriptions.back')}
      </Group>
    </Anchor>
  );
}

/** /upgrade: the limits and duration asked for, recorded as an order. */
export function UpgradePage() {
  const { t } = useTranslation();
  return (
    <HolderOnly>
      <Stack maw={640} data-testid="upgrade-page">
        <BackLink />
        <Title order={1} size="h3">
          {t('subscriptions.upgrade_title')}
        </Title>
        <Text>{t('subscriptions.upgrade_text')}</Text>
        <NoPaymentNote />
        <UpgradeForm />
      </Stack>
    </HolderOnly>
  );
}

function UpgradeForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const overview = useOverview();
  const [environments, setEnvironments] = useState<number | string>('');
  const [users, setUsers] = useState<number | string>('');
  const [noUserLimit, setNoUserLimit] = useState(false);
  const [months, setMonths] = useState<string | null>('12');
  const [note, setNote] = useState('');
  // start from what the running subscriptions allow now, once known
  const [started, setStarted] = useState(false);
  if (!started && overview.data) {
    setStarted(true);
    setEnvironments(Math.max(overview.data.limits.max_environments, overview.data.usage.environments, 1));
    setUsers(Math.max(overview.data.limits.max_users ?? 0, overview.data.usage.users, 1));
  }
  const order = useMutation({
    mutationFn: () =>
      api.post<Order>('/order', {
        max_environments: typeof environments === 'number' ? environments : null,
        max_users: noUserLimit ? null : typeof users === 'number' ? users : 0,
        months: months ? Number(months) : null,
        note,
      }),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: ['subscription'] });
      notifySuccess(t('subscriptions.ordered'));
      navigate(`/order/${created.id}`);
    },
  });
  const { fieldError, formError } = callErrors(order.error, t);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    order.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        <NumberInput
          label={t('subscriptions.environments')}
          description={t('subscriptions.environments_hint')}
          required
          min={1}
          max={ORDER_MAX_ENVIRONMENTS}
          allowDecimal={false}
          value={environments}
          onChange={setEnvironments}
          error={fieldError('max_environments')}
          data-testid="upgrade-environments"
        />
        <NumberInput
          label={t('subscriptions.users')}
          description={t('subscriptions.users_hint')}
          required={!noUserLimit}
          disabled={noUserLimit}
          min={1}
          max={ORDER_MAX_USERS}
          allowDecimal={false}
          value={users}
          onChange={setUsers}
          error={fieldError('max_users')}
          data-testid="upgrade-users"
        />
        <Checkbox
          label={t('subscriptions.no_user_limit')}
          checked={noUserLimit}
          onChange={(event) => setNoUserLimit(event.currentTarget.checked)}
          data-testid="upgrade-no-user-limit"
        />
        <Select
          label={t('subscriptions.months')}
          required
          data={ORDER_MONTHS.map((m) => ({ value: String(m), label: String(m) }))}
          value={months}
          onChange={setMonths}
          allowDeselect={false}
          error={fieldError('months')}
          data-testid="upgrade-months"
        />
        <Textarea
          label={t('subscriptions.note')}
          description={t('subscriptions.note_hint')}
          autosize
          minRows={3}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          error={fieldError('note')}
          data-testid="upgrade-note"
        />
        <Group>
          <Button type="submit" loading={order.isPending} data-testid="upgrade-submit">
            {t('subscriptions.order_submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /order/{id}: one order of the contract admin, cancelled while it is requested. */
export function OrderPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  return (
    <HolderOnly>
      <Stack maw={640} data-testid="order-page">
        <BackLink />
        <Title order={1} size="h3">
          {t('subscriptions.order_number', { id: Number.isInteger(id) ? id : '' })}
        </Title>
        <OrderDetail id={id} />
      </Stack>
    </HolderOnly>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="xs" align="baseline" wrap="nowrap">
      <Text size="sm" c="dimmed" w={200} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

function OrderDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const valid = Number.isInteger(id) && id > 0;
  const order = useQuery({
    queryKey: subscriptionKeys.order(id),
    queryFn: ({ signal }) => api.get<Order>(`/order/${id}`, undefined, signal),
    enabled: valid,
    retry: (count, error) => !isApiError(error, 404) && count < 2,
  });
  const cancel = useMutation({
    mutationFn: () => api.post<Order>(`/order/${id}/cancel`),
    onSuccess: async (cancelled) => {
      queryClient.setQueryData(subscriptionKeys.order(id), cancelled);
      await queryClient.invalidateQueries({ queryKey: ['subscription', 'orders'] });
      setConfirming(false);
      notifySuccess(t('subscriptions.cancelled'));
    },
  });
  if (!valid || isApiError(order.error, 404))
    return (
      <Alert color="orange" data-testid="order-not-found">
        {t('subscriptions.order_not_found')}
      </Alert>
    );
  if (order.isPending) return <Loader />;
  if (order.isError) return <Alert color="red">{errorMessage(order.error, t)}</Alert>;
  const data = order.data;
  return (
    <Stack>
      <NoPaymentNote />
      <Paper withBorder p="md">
        <Stack gap="xs" data-testid="order-detail">
          <Detail label={t('subscriptions.status')}>
            <StatusBadge status={data.status} />
          </Detail>
          <Detail label={t('subscriptions.status_meaning')}>
            {t(`subscriptions.status_texts.${data.status}`)}
          </Detail>
          <Detail label={t('subscriptions.ordered_on')}>{formatDate(data.created_at)}</Detail>
          <Detail label={t('subscriptions.modified_on')}>{formatDate(data.modified_at)}</Detail>
          <Detail label={t('subscriptions.environments')}>{data.max_environments}</Detail>
          <Detail label={t('subscriptions.users')}>{data.max_users ?? t('subscriptions.no_limit')}</Detail>
          <Detail label={t('subscriptions.months')}>{data.months}</Detail>
          <Detail label={t('subscriptions.note')}>{data.note || t('subscriptions.no_note')}</Detail>
        </Stack>
      </Paper>
      {data.status === 'requested' && (
        <Group>
          <Button
            variant="default"
            color="red"
            onClick={() => setConfirming(true)}
            data-testid="order-cancel"
          >
            {t('subscriptions.cancel_order')}
          </Button>
        </Group>
      )}
      <Modal
        opened={confirming}
        onClose={() => {
          setConfirming(false);
          cancel.reset();
        }}
        title={t('subscriptions.cancel_title')}
        centered
      >
        <Stack>
          <Text size="sm">{t('subscriptions.cancel_text')}</Text>
          {cancel.error && (
            <Alert color="red" role="alert">
              {actionErrorMessage(cancel.error, t)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              {t('subscriptions.keep_order')}
            </Button>
            <Button
              color="red"
              loading={cancel.isPending}
              onClick={() => cancel.mutate()}
              data-testid="order-cancel-confirm"
            >
              {t('subscriptions.cancel_order')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
