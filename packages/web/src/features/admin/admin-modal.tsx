import { Alert, Button, type ButtonProps, Group, Modal, type ModalProps, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { focusMain } from '../../app/shell/skip-link';

interface AdminModalProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  /** data-testid of the modal. */
  testId: string;
  size?: ModalProps['size'];
  /** The form's submit (react-hook-form's handleSubmit); without it the modal has only a Close button. */
  onSubmit?: (event?: FormEvent) => unknown;
  /** A save or delete is under way: Save shows it and every button waits. */
  pending?: boolean;
  /** The form-wide message (a server error that names no field). */
  error?: string;
  saveTestId?: string;
  saveLabel?: string;
  saveDisabled?: boolean;
  /** red for a save that removes something */
  saveColor?: ButtonProps['color'];
  cancelLabel?: string;
  cancelTestId?: string;
  /** Buttons at the left of the footer: Delete, Duplicate. */
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * A modal gives the focus back to what opened it; after a delete that is gone with what it deleted (a
 * field's cog in the designer, a position's tab), and the focus would fall to the page's body: it goes
 * to the page's heading instead. Runs once the modal has gone, after Mantine's own return.
 */
function focusMainWhenLost() {
  window.setTimeout(() => {
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) focusMain();
  }, 50);
}

/**
 * The shell every admin modal shares: the title, the form-wide error above the body, and a footer
 * with the modal's own actions at the left and Cancel and Save at the right. The body is a form, so
 * Enter saves.
 */
export function AdminModal({
  opened,
  onClose,
  title,
  testId,
  size,
  onSubmit,
  pending = false,
  error,
  saveTestId,
  saveLabel,
  saveDisabled,
  saveColor,
  cancelLabel,
  cancelTestId,
  actions,
  children,
}: AdminModalProps) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A modal opened from another one is portalled but still inside its React tree: keep the
    // submit from reaching the outer form.
    event.stopPropagation();
    void onSubmit?.(event);
  };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={size}
      data-testid={testId}
      onExitTransitionEnd={focusMainWhenLost}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {error && (
            <Alert color="red" data-testid="form-error">
              {error}
            </Alert>
          )}
          {children}
          <Group justify={actions ? 'space-between' : 'flex-end'}>
            {actions && <Group gap="xs">{actions}</Group>}
            <Group gap="xs">
              <Button variant="default" onClick={onClose} data-testid={cancelTestId ?? `${testId}-cancel`}>
                {cancelLabel ?? (onSubmit ? t('common.cancel') : t('common.close'))}
              </Button>
              {onSubmit && (
                <Button
                  type="submit"
                  loading={pending}
                  disabled={saveDisabled}
                  color={saveColor}
                  data-testid={saveTestId}
                >
                  {saveLabel ?? t('admin.save')}
                </Button>
              )}
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The red mark on a tab whose fields have errors (a tab's rightSection). */
export function ErrorMark({ shown, testId }: { shown: unknown; testId?: string }) {
  return shown ? <IconAlertCircle size={14} color="red" data-testid={testId} /> : null;
}
