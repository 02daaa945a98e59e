import { createContext, useContext } from "react";

// Set by entry.server for the Content-Security-Policy; empty in the browser, which hides nonces anyway.
const NonceContext = createContext<string>("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
