import { apiError } from "~/utils/http.server";

/** Unknown API paths answer JSON, not the HTML not-found page. */
export function loader() {
  return apiError(404, "not_found", "No such API call");
}

export function action() {
  return apiError(404, "not_found", "No such API call");
}
