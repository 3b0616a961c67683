import { type FieldTypeName, isFieldTypeName } from '@dossierbase/core';
import { AmountDisplay, AmountEditor } from './amount';
import { AutoIncrementDisplay } from './auto-increment';
import { CalcDisplay, CalcEditor } from './calc';
import { CustomActionButtonDisplay, CustomActionButtonEditor } from './custom-action-button';
import { DateDisplay, DateEditor } from './date';
import { EmailDisplay, EmailEditor } from './email';
import { FileDisplay, FileEditor } from './file';
import { GeolocationDisplay, GeolocationEditor } from './geolocation';
import { operatorsOf } from './helpers';
import { ImageCodeDisplay, ImageCodeEditor } from './image-code';
import { LinkDisplay, LinkEditor } from './link';
import { ListDisplay, ListEditor } from './list';
import { FieldSearchInput } from './search-input';
import { SystemdateDisplay, SystemdateEditor, SystemuserDisplay, SystemuserEditor } from './system';
import { TextDisplay, TextEditor } from './text';
import { TextareaDisplay, TextareaEditor } from './textarea';
import { TimeDisplay, TimeEditor } from './time';
import { TreeDisplay, TreeEditor } from './tree';
import type { FieldComponents } from './types';
import { UnknownFieldType } from './unknown';
import { UrlDisplay, UrlEditor } from './url';
import { UserDisplay, UserEditor } from './user';

/** SearchInput only for types the registry gives query operators. */
const search = (type: FieldTypeName) => (operatorsOf(type).length > 0 ? FieldSearchInput : null);

export const FIELD_COMPONENTS: Readonly<Record<FieldTypeName, FieldComponents>> = {
  text: { Editor: TextEditor, Display: TextDisplay, SearchInput: search('text') },
  textarea: { Editor: TextareaEditor, Display: TextareaDisplay, SearchInput: search('textarea') },
  amount: { Editor: AmountEditor, Display: AmountDisplay, SearchInput: search('amount') },
  url: { Editor: UrlEditor, Display: UrlDisplay, SearchInput: search('url') },
  email: { Editor: EmailEditor, Display: EmailDisplay, SearchInput: search('email') },
  autoIncrement: { Editor: null, Display: AutoIncrementDisplay, SearchInput: search('autoIncrement') },
  calc: { Editor: CalcEditor, Display: CalcDisplay, SearchInput: search('calc') },
  imageCode: { Editor: ImageCodeEditor, Display: ImageCodeDisplay, SearchInput: search('imageCode') },
  date: { Editor: DateEditor, Display: DateDisplay, SearchInput: search('date') },
  time: { Editor: TimeEditor, Display: TimeDisplay, SearchInput: search('time') },
  file: { Editor: FileEditor, Display: FileDisplay, SearchInput: search('file') },
  geolocation: { Editor: GeolocationEditor, Display: GeolocationDisplay, SearchInput: search('geolocation') },
  list: { Editor: ListEditor, Display: ListDisplay, SearchInput: search('list') },
  tree: { Editor: TreeEditor, Display: TreeDisplay, SearchInput: search('tree') },
  user: { Editor: UserEditor, Display: UserDisplay, SearchInput: search('user') },
  link: { Editor: LinkEditor, Display: LinkDisplay, SearchInput: search('link') },
  customActionButton: {
    Editor: CustomActionButtonEditor,
    Display: CustomActionButtonDisplay,
    SearchInput: search('customActionButton'),
  },
  systemdate: { Editor: SystemdateEditor, Display: SystemdateDisplay, SearchInput: search('systemdate') },
  systemuser: { Editor: SystemuserEditor, Display: SystemuserDisplay, SearchInput: search('systemuser') },
};

/** Shown in every slot for a type the client does not know ('Unknown field type'). */
export const UNKNOWN_FIELD_COMPONENTS: FieldComponents = {
  Editor: UnknownFieldType,
  Display: UnknownFieldType,
  SearchInput: UnknownFieldType,
};

export function getFieldComponents(type: string | null | undefined): FieldComponents {
  return isFieldTypeName(type) ? FIELD_COMPONENTS[type] : UNKNOWN_FIELD_COMPONENTS;
}
