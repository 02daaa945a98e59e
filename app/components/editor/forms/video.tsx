import { useTranslation } from "react-i18next";
import { VIDEO_ID_PATTERN } from "~/content/model";
import type { VideoElement } from "~/content/schema";
import { LayoutFields } from "../fields/layout-fields";
import { UploadField } from "../fields/upload-field";
import { useLatest } from "../fields/use-latest";
import type { UploadAnswer } from "../upload";
import type { FormProps } from "./form-props";
import { StyleFold } from "../fields/style-fold";

export function VideoForm({ element, onChange, articleId, id }: FormProps<VideoElement>) {
  const { t } = useTranslation();
  const latest = useLatest({ element, onChange });
  // The server names the files after the video id; it may hand back a new one, which is then kept.
  const uploaded =
    (field: "src" | "subtitles") =>
    ({ mediaUrl, videoId }: UploadAnswer) => {
      const current = latest.current.element;
      const nextId = videoId && VIDEO_ID_PATTERN.test(videoId) ? videoId : current.videoId;
      latest.current.onChange({ ...current, [field]: mediaUrl, videoId: nextId });
    };
  return (
    <div className="ef-form">
      <UploadField
        id={`${id}-video`}
        kind="video"
        label={t("editor.fields.video.file")}
        value={element.src}
        articleId={articleId}
        videoId={element.videoId}
        onUploaded={uploaded("src")}
      />
      <UploadField
        id={`${id}-subtitles`}
        kind="subtitles"
        label={t("editor.fields.video.subtitles")}
        value={element.subtitles}
        articleId={articleId}
        videoId={element.videoId}
        onUploaded={uploaded("subtitles")}
      />
      {/* The video id names the files on the server: technical, kept but not shown (decision 069). */}
      <StyleFold style={element}>
        <LayoutFields id={id} size={element.size} justify={element.justify} onChange={(layout) => onChange({ ...element, ...layout })} />
      </StyleFold>
    </div>
  );
}
