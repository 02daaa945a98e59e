/** The visitors' questions tile: a speech bubble holding a question mark. */
export function QuestionIcon({ size = 48 }: { size?: number }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
      width={size}
      height={size}
    >
      <path d="M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H11l-4.5 4v-4h0A2.5 2.5 0 0 1 4 13.5z" />
      <path d="M10 8a2 2 0 1 1 2.8 1.8c-.5.3-.8.7-.8 1.2v.5" />
      <circle cx="12" cy="13.6" r="0.4" fill="currentColor" />
    </svg>
  );
}
