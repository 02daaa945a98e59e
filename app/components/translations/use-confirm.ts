import { useEffect, useRef, useState } from "react";

/**
 * Open/close state for a confirmation dialog that gives focus back to the button that opened it once
 * the dialog is gone (while the modal is open the rest of the page is inert and cannot take focus).
 */
export function useConfirm() {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const restore = useRef(false);
  useEffect(() => {
    if (open || !restore.current) return;
    restore.current = false;
    trigger.current?.focus();
  }, [open]);
  return {
    open,
    trigger,
    ask: () => setOpen(true),
    close: () => {
      restore.current = true;
      setOpen(false);
    },
  };
}
