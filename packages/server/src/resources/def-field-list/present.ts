export { type ListOptionRow, presentListOption } from '../def-field/present';
