import '@mantine/tiptap/styles.css';
import { Input, Select } from '@mantine/core';
import { RichTextEditor, type RichTextEditorLabels } from '@mantine/tiptap';
import { type Editor, useEditor, useEditorState } from '@tiptap/react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validateFieldValue } from './helpers';
import { RICH_TEXT_FONT_FAMILIES, RICH_TEXT_FONT_SIZES, richTextOutput, sanitiseRichText } from './rich-text';
import { richTextExtensions } from './rich-text-extensions';
import { useRovingToolbar } from './roving-toolbar';
import type { FieldEditorProps } from './types';

/** Spec: the editor is 250 px high. */
const EDITOR_HEIGHT = 250;

function useEditorLabels(): Partial<RichTextEditorLabels> {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      boldControlLabel: t('fields.rich.bold'),
      italicControlLabel: t('fields.rich.italic'),
      underlineControlLabel: t('fields.rich.underline'),
      strikeControlLabel: t('fields.rich.strike'),
      clearFormattingControlLabel: t('fields.rich.clear_formatting'),
      h1ControlLabel: t('fields.rich.heading', { level: 1 }),
      h2ControlLabel: t('fields.rich.heading', { level: 2 }),
      h3ControlLabel: t('fields.rich.heading', { level: 3 }),
      bulletListControlLabel: t('fields.rich.bullet_list'),
      orderedListControlLabel: t('fields.rich.ordered_list'),
      blockquoteControlLabel: t('fields.rich.blockquote'),
      linkControlLabel: t('fields.rich.link'),
      unlinkControlLabel: t('fields.rich.unlink'),
      undoControlLabel: t('fields.rich.undo'),
      redoControlLabel: t('fields.rich.redo'),
      linkEditorInputLabel: t('fields.rich.link_url'),
      linkEditorInputPlaceholder: 'https://example.com',
      linkEditorExternalLink: t('fields.rich.link_new_tab'),
      linkEditorInternalLink: t('fields.rich.link_same_tab'),
      linkEditorSave: t('fields.rich.link_save'),
    }),
    [t],
  );
}

/** Font size and family pickers for the selection (the spec's 8-48 pt). */
function FontControls({ editor, disabled }: { editor: Editor; disabled?: boolean }) {
  const { t } = useTranslation();
  const current = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      const attrs = e.getAttributes('textStyle') as { fontSize?: string; fontFamily?: string };
      return { size: attrs.fontSize ?? null, family: attrs.fontFamily ?? null };
    },
  });
  return (
    <>
      <Select
        size="xs"
        w={90}
        aria-label={t('fields.rich.font_size')}
        placeholder={t('fields.rich.font_size')}
        data-testid="rich-text-font-size"
        data={RICH_TEXT_FONT_SIZES as string[]}
        value={current.size}
        disabled={disabled}
        clearable
        onChange={(size) => {
          const chain = editor.chain().focus();
          (size ? chain.setFontSize(size) : chain.unsetFontSize()).run();
        }}
        comboboxProps={{ withinPortal: true }}
      />
      <Select
        size="xs"
        w={150}
        aria-label={t('fields.rich.font_family')}
        placeholder={t('fields.rich.font_family')}
        data-testid="rich-text-font-family"
        data={RICH_TEXT_FONT_FAMILIES.map((f) => ({ value: f.value, label: f.label }))}
        value={current.family}
        disabled={disabled}
        clearable
        onChange={(family) => {
          const chain = editor.chain().focus();
          (family ? chain.setFontFamily(family) : chain.unsetFontFamily()).run();
        }}
        comboboxProps={{ withinPortal: true }}
      />
    </>
  );
}

/** The editable area's ARIA attributes, with the ids Input.Wrapper gives its label, description and error. */
function textboxAttributes(id: string, invalid: boolean, described: boolean): Record<string, string> {
  const describedBy = [invalid && `${id}-error`, described && `${id}-description`].filter(Boolean).join(' ');
  return {
    'aria-labelledby': `${id}-label`,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(invalid ? { 'aria-invalid': 'true' } : {}),
  };
}

/**
 * Tiptap rich text editor (loaded lazily by TextareaEditor). Every change is passed through the
 * shared whitelist (sanitiseRichText) and the registry's normalise before it is emitted.
 */
export default function RichTextField(props: FieldEditorProps) {
  const { value, onChange, onInvalid, disabled, settings, ctx } = props;
  const labels = useEditorLabels();
  const [message, setMessage] = useState<string | null>(null);
  const emitted = useRef<unknown>(value);
  // The latest props for the editor's callbacks (created once).
  const latest = useRef({ onChange, onInvalid, settings, ctx });
  latest.current = { onChange, onInvalid, settings, ctx };

  const extensions = useMemo(richTextExtensions, []);
  // the editable area is named by the field's label, and described by its description and error
  // (Input.Wrapper gives them ids made from this one)
  const id = useId();
  const error = props.error ?? message;
  const invalid = Boolean(error);
  const described = Boolean(props.description);
  const attributes = useMemo(() => textboxAttributes(id, invalid, described), [id, invalid, described]);
  const toolbar = useRovingToolbar<HTMLDivElement>();
  const editor = useEditor({
    extensions,
    editorProps: { attributes },
    content: sanitiseRichText(typeof value === 'string' ? value : ''),
    editable: !disabled,
    onUpdate: ({ editor: e }) => {
      const html = richTextOutput(e.getHTML());
      const { onChange: change, onInvalid: invalid, settings: s, ctx: c } = latest.current;
      const result = validateFieldValue('textarea', html, s, c);
      if (result.ok) {
        emitted.current = result.value;
        setMessage(null);
        invalid?.(null);
        change(result.value);
      } else {
        setMessage(result.message);
        invalid?.(result.message);
      }
    },
  });

  useEffect(() => {
    // An outside change (reset, another user's update) replaces the document.
    if (!editor || value === emitted.current) return;
    emitted.current = value;
    editor.commands.setContent(sanitiseRichText(typeof value === 'string' ? value : ''), {
      emitUpdate: false,
    });
  }, [editor, value]);

  useEffect(() => {
    editor?.setEditable(!disabled);
  }, [editor, disabled]);

  useEffect(() => {
    editor?.setOptions({ editorProps: { attributes } });
  }, [editor, attributes]);

  return (
    <Input.Wrapper
      id={id}
      label={props.label}
      description={props.description}
      withAsterisk={props.required}
      error={error}
    >
      <RichTextEditor
        editor={editor}
        labels={labels}
        data-testid="rich-text-editor"
        styles={{ content: { height: EDITOR_HEIGHT, overflowY: 'auto' } }}
      >
        <RichTextEditor.Toolbar ref={toolbar}>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold data-testid="rich-text-bold" />
            <RichTextEditor.Italic data-testid="rich-text-italic" />
            <RichTextEditor.Underline data-testid="rich-text-underline" />
            <RichTextEditor.Strikethrough data-testid="rich-text-strike" />
            <RichTextEditor.ClearFormatting data-testid="rich-text-clear" />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H1 />
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.BulletList data-testid="rich-text-bullet-list" />
            <RichTextEditor.OrderedList data-testid="rich-text-ordered-list" />
            <RichTextEditor.Blockquote />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link data-testid="rich-text-link" />
            <RichTextEditor.Unlink data-testid="rich-text-unlink" />
          </RichTextEditor.ControlsGroup>
          {editor ? <FontControls editor={editor} disabled={disabled} /> : null}
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content data-testid="rich-text-content" />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
