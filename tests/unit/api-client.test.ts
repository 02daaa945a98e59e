import { describe, expect, it } from "vitest";
import { fixedT } from "~/i18n/config";
import { apiErrorMessage, type ApiFailure } from "~/utils/api-client";

const failure = (error: ApiFailure["error"], status = 400): ApiFailure => ({ ok: false, status, error });

describe("apiErrorMessage", () => {
  const t = fixedT("fr");

  it("words a field rule's reason, never the server's English", () => {
    expect(apiErrorMessage(t, failure({ code: "invalid_input", message: "id cannot contain /", field: "id", reason: "slash" }))).toBe(
      "Un nom ne peut pas contenir « / ».",
    );
    expect(apiErrorMessage(t, failure({ code: "invalid_input", message: "x", reason: "too_long" }))).toBe("C'est trop long : 100 caractères au plus.");
  });

  it("says in both languages that media must be uploaded, not linked (decision 035)", () => {
    const refused = failure({ code: "invalid_input", message: "x", field: "newContent.2.src", reason: "external_media" });
    expect(apiErrorMessage(t, refused)).toBe(
      "Les images, vidéos et sous-titres doivent être envoyés depuis l'éditeur\u00a0: les adresses d'autres sites ne sont pas acceptées.",
    );
    expect(apiErrorMessage(fixedT("en"), refused)).toBe(
      "Images, videos and subtitles must be uploaded from the editor: addresses on other sites are not accepted.",
    );
  });

  it("falls back to the code, then to a generic message for an unknown one", () => {
    expect(apiErrorMessage(t, failure({ code: "conflict", message: "x" }, 409))).toBe("Un élément de ce nom existe déjà ici.");
    expect(apiErrorMessage(t, failure({ code: "teapot", message: "x" }, 418))).toBe("Quelque chose s'est mal passé");
    expect(apiErrorMessage(t, failure({ code: "not_found", message: "x", reason: "made_up" as never }, 404))).toBe(
      "Cet élément n'existe plus. La liste a été actualisée.",
    );
  });

  it("says when the destination of a move is what went missing", () => {
    expect(apiErrorMessage(t, failure({ code: "not_found", message: "x", field: "toFolderId" }, 404))).toBe(
      "Le dossier de destination n'existe plus. La liste a été actualisée.",
    );
  });
});
