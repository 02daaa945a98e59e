// Whether the visitor reads the easy-to-read version (issue 22 §2, decision 096): `?easy=1` or `?easy=0`
// chooses and is remembered in a cookie like the language; otherwise the cookie decides. Only articles
// with an approved version show it; the choice stays for the next article that has one.
import { readCookie } from "~/lib/cookies";

export const EASY_COOKIE = "muselingo_easy";
const ONE_YEAR = 365 * 24 * 3600;

export interface EasyChoice {
  on: boolean;
  /** Set-Cookie remembering a choice made now. */
  setCookie?: string;
}

export function chooseEasyRead(request: Request): EasyChoice {
  const url = new URL(request.url);
  const asked = url.searchParams.get("easy");
  if (asked === "1" || asked === "0") {
    const secure = url.protocol === "https:" ? "; Secure" : "";
    const on = asked === "1";
    return {
      on,
      setCookie: on
        ? `${EASY_COOKIE}=1; Path=/; Max-Age=${ONE_YEAR}; SameSite=Lax; HttpOnly${secure}`
        : `${EASY_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly${secure}`,
    };
  }
  return { on: readCookie(request.headers.get("Cookie"), EASY_COOKIE) === "1" };
}
