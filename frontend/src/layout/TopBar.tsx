import { useTranslation } from "react-i18next";
import { Link, NavLink, useNavigate } from "react-router";

import { useSession } from "../auth/session";
import { LanguageSwitcher } from "../i18n/LanguageSwitcher";

export function TopBar() {
  const { t } = useTranslation();
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const me = session.state === "signed-in" ? session.me : null;

  return (
    <header className="topbar">
      <a className="skip-link" href="#main">
        {t("common:nav.skip")}
      </a>
      <Link to="/" className="brand" aria-label={t("common:brand.home")}>
        <span className="brand-mark" aria-hidden="true">
          ◎
        </span>
        Mockloop
      </Link>
      {me && (
        <nav aria-label={t("common:nav.main")}>
          <ul>
            {me.role !== "coach" && (
              <li>
                <NavLink to="/" end>
                  {t("common:nav.loops")}
                </NavLink>
              </li>
            )}
            {me.role !== "coach" && (
              <li>
                <NavLink to="/progress">{t("common:nav.progress")}</NavLink>
              </li>
            )}
            {me.role === "candidate" && (
              <li>
                <NavLink to="/plan">{t("common:nav.plan")}</NavLink>
              </li>
            )}
            {(me.role === "coach" || me.role === "admin") && (
              <li>
                <NavLink to="/coach" end>{t("common:nav.coachConsole")}</NavLink>
              </li>
            )}
            {(me.role === "coach" || me.role === "admin") && (
              <li>
                <NavLink to="/coach/calibration">{t("common:nav.calibration")}</NavLink>
              </li>
            )}
            {me.role === "admin" && (
              <li>
                <NavLink to="/bank">{t("common:nav.bank")}</NavLink>
              </li>
            )}
            {me.role === "admin" && (
              <li>
                <a href="/admin/">{t("common:nav.djangoAdmin")}</a>
              </li>
            )}
          </ul>
        </nav>
      )}
      <div className="topbar-right">
        <LanguageSwitcher />
        {me ? (
          <>
            <Link to="/settings" className="who" title={t("common:nav.settings")}>
              {me.username} <span className={`role role-${me.role}`}>{t(`common:role.${me.role}`)}</span>
            </Link>
            <button
              type="button"
              className="secondary small"
              onClick={() => void signOut().then(() => navigate("/login"))}
            >
              {t("common:nav.signOut")}
            </button>
          </>
        ) : (
          session.state !== "loading" && (
            <>
              <NavLink to="/login">{t("common:nav.signIn")}</NavLink>
              <NavLink to="/signup" className="button primary small">
                {t("common:nav.signUp")}
              </NavLink>
            </>
          )
        )}
      </div>
    </header>
  );
}
