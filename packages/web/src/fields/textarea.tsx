import {
  htmlToText,
  RICH_TEXT_ATTRIBUTES,
  RICH_TEXT_LIST_ATTRIBUTES,
  RICH_TEXT_LIST_TAGS,
  RICH_TEXT_TAGS,
} from '@dossierbase/core';
import { Anchor, Box, Input, Text } from '@mantine/core';
import DOMPurify from 'dompurify';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { previewText, RICH_TEXT_PREVIEW, validateFieldValue } from './helpers';
import type { FieldDisplayProps, FieldEditorProps } from './types';

export function sanitiseRichText(html: string, listMode = false): string {
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS: [...(listMode ? RICH_TEXT_LIST_TAGS : RICH_TEXT_TAGS)],
    ALLOWED_ATTR: listMode ? RICH_TEXT_LIST_ATTRIBUTES : RICH_TEXT_ATTRIBUTES,
  });
}

const COMMANDS = [
  { command: 'bold', label: 'B', style: { fontWeight: 700 } },
  { command: 'italic', label: 'I', style: { fontStyle: 'italic' } },
  { command: 'underline', label: 'U', style: { textDecoration: 'underline' } },
  { command: 'insertUnorderedList', label: '•', style: {} },
  { command: 'insertOrderedList', label: '1.', style: {} },
] as const;

/**
 * Minimal rich text editor: a contentEditable box (250 px) with bold, italic, underline and lists
 * (@mantine/tiptap is not installed). Pasted/typed HTML is sanitised before it is emitted.
 */
export function TextareaEditor(props: FieldEditorProps) {
  const { value, onChange, onInvalid, disabled, settings, ctx } = props;
  const ref = useRef<HTMLDivElement>(null);
  const emitted = useRef<unknown>(Symbol('initial'));
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    if (ref.current && value !== emitted.current) {
      emitted.current = value;
      ref.current.innerHTML = sanitiseRichText(typeof value === 'string' ? value : '');
    }
  }, [value]);

  const emit = () => {
    const html = sanitiseRichText(ref.current?.innerHTML ?? '');
    const result = validateFieldValue('textarea', html, settings, ctx);
    if (result.ok) {
      emitted.current = result.value;
      setMessage(null);
      onInvalid?.(null);
      onChange(result.value);
    } else {
      setMessage(result.message);
      onInvalid?.(result.message);
    }
  };

  return (
    <Input.Wrapper
      label={props.label}
      description={props.description}
      withAsterisk={props.required}
      error={props.error ?? message}
    >
      <Box style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}>
        <Box
          style={{
            display: 'flex',
            gap: 4,
            padding: 4,
            borderBottom: '1px solid var(--mantine-color-default-border)',
          }}
        >
          {COMMANDS.map((c) => (
            <button
              key={c.command}
              type="button"
              disabled={disabled}
              style={{ ...c.style, minWidth: 28 }}
              onMouseDown={(e) => {
                e.preventDefault(); // keep the selection in the editor
                document.execCommand(c.command);
                emit();
              }}
            >
              {c.label}
            </button>
          ))}
        </Box>
        <div
          ref={ref}
          tabIndex={disabled ? -1 : 0}
          contentEditable={!disabled}
          suppressContentEditableWarning
          onInput={emit}
          onBlur={emit}
          style={{ height: 250, overflowY: 'auto', padding: 8, outline: 'none' }}
        />
      </Box>
    </Input.Wrapper>
  );
}

/** Sanitised HTML; long text shows a plain preview (160 list / 450 detail) with Read more / Read less. */
export function TextareaDisplay({ value, listMode }: FieldDisplayProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (typeof value !== 'string' || value === '') return null;
  const preview = previewText(
    htmlToText(value),
    listMode ? RICH_TEXT_PREVIEW.list : RICH_TEXT_PREVIEW.detail,
  );
  if (preview.cut && !open) {
    return (
      <div>
        <Text style={{ whiteSpace: 'pre-line' }}>{preview.text}</Text>
        <Anchor component="button" type="button" size="sm" onClick={() => setOpen(true)}>
          {t('fields.textarea.read_more')}
        </Anchor>
      </div>
    );
  }
  return (
    <div>
      <div
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify to the whitelist
        dangerouslySetInnerHTML={{ __html: sanitiseRichText(value, listMode) }}
      />
      {preview.cut ? (
        <Anchor component="button" type="button" size="sm" onClick={() => setOpen(false)}>
          {t('fields.textarea.read_less')}
        </Anchor>
      ) : null}
    </div>
  );
}
