// The labels a dossier document (PDF, Word) prints beside the fields, in the reader's language (the
// web sends its own); English otherwise.

type Labels = { createdBy: string; createdAt: string; modifiedBy: string; modifiedAt: string };

const LABELS: Record<string, Labels> = {
  en: {
    createdBy: 'Created by',
    createdAt: 'Created at',
    modifiedBy: 'Changed by',
    modifiedAt: 'Changed at',
  },
  nl: {
    createdBy: 'Aangemaakt door',
    createdAt: 'Aangemaakt op',
    modifiedBy: 'Gewijzigd door',
    modifiedAt: 'Gewijzigd op',
  },
  de: {
    createdBy: 'Erstellt von',
    createdAt: 'Erstellt am',
    modifiedBy: 'Geändert von',
    modifiedAt: 'Geändert am',
  },
  fr: { createdBy: 'Créé par', createdAt: 'Créé le', modifiedBy: 'Modifié par', modifiedAt: 'Modifié le' },
  es: {
    createdBy: 'Creado por',
    createdAt: 'Creado el',
    modifiedBy: 'Modificado por',
    modifiedAt: 'Modificado el',
  },
  ru: { createdBy: 'Создал', createdAt: 'Создано', modifiedBy: 'Изменил', modifiedAt: 'Изменено' },
};

export const documentLabels = (lang?: string): Labels =>
  LABELS[(lang ?? 'en').slice(0, 2).toLowerCase()] ?? LABELS.en;
