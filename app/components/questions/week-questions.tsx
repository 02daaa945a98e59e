import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export interface WeekQuestionsData {
  topics: number;
  questions: number;
  top: { articleId: number; articleName: string; question: string; count: number }[];
}

/** The dashboard's card: this week's questions the published text did not answer (decision 151). */
export function WeekQuestions({ week }: { week: WeekQuestionsData }) {
  const { t } = useTranslation();
  return (
    <section className="dashboard-questions" aria-labelledby="dashboard-questions-title">
      <h2 id="dashboard-questions-title">{t("questions.weekTitle")}</h2>
      <p>{t("questions.weekBody", { count: week.questions })}</p>
      <ul>
        {week.top.map((q) => (
          <li key={`${q.articleId}:${q.question}`}>
            <q>{q.question}</q> — <Link to={`/questions?article=${q.articleId}`}>{q.articleName}</Link> ({q.count})
          </li>
        ))}
      </ul>
      <p>
        <Link to="/questions">{t("questions.weekLink")}</Link>
      </p>
    </section>
  );
}
