// The fields of one content element in the article editor. The page around it owns the list (order,
// add, delete) and the preview; this only edits one element and hands back the next version of it.
import type { ContentElement } from "~/content/schema";
import { AccordionForm } from "./forms/accordion";
import { ImageForm } from "./forms/image";
import { LegendItemForm } from "./forms/legend-item";
import { LinkForm } from "./forms/link";
import { SpaceForm } from "./forms/space";
import { TextForm } from "./forms/text";
import { VideoForm } from "./forms/video";

export function ElementFields(props: {
  element: Exclude<ContentElement, { type: "metadatas" }>;
  onChange: (next: Exclude<ContentElement, { type: "metadatas" }>) => void;
  articleId: number;
  idPrefix: string;
}): JSX.Element {
  const { element, onChange, articleId, idPrefix } = props;
  const rest = { onChange, articleId, id: idPrefix };
  switch (element.type) {
    case "text":
      return <TextForm element={element} {...rest} />;
    case "image":
      return <ImageForm element={element} {...rest} />;
    case "video":
      return <VideoForm element={element} {...rest} />;
    case "space":
      return <SpaceForm element={element} {...rest} />;
    case "link":
      return <LinkForm element={element} {...rest} />;
    case "legendItem":
      return <LegendItemForm element={element} {...rest} />;
    case "accordion":
      return <AccordionForm element={element} {...rest} />;
  }
}
