// For a route's `links`: the visitor page ships no JavaScript, so the stylesheet cannot ride on an import.
import contentStylesheetUrl from "./content.css?url";

export { contentStylesheetUrl };
