export interface FormProps<E> {
  element: E;
  onChange: (next: E) => void;
  articleId: number;
  /** Prefix of every id in the form, unique on the page. */
  id: string;
}
