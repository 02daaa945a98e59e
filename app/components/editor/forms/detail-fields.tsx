import type { AccordionDetail } from "~/content/schema";
import type { FormProps } from "./form-props";
import { ImageForm } from "./image";
import { LegendItemForm } from "./legend-item";
import { LinkForm } from "./link";
import { SpaceForm } from "./space";
import { TextForm } from "./text";

/** The fields of one accordion detail: the same forms as top-level elements, for the types a detail may be. */
export function DetailFields({ element, ...rest }: FormProps<AccordionDetail>) {
  switch (element.type) {
    case "text":
      return <TextForm element={element} {...rest} />;
    case "image":
      return <ImageForm element={element} {...rest} />;
    case "space":
      return <SpaceForm element={element} {...rest} />;
    case "link":
      return <LinkForm element={element} {...rest} />;
    case "legendItem":
      return <LegendItemForm element={element} {...rest} />;
  }
}
