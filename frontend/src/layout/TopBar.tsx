import { Link, NavLink, useNavigate } from "react-router";

import { useSession } from "../auth/session";

export function TopBar() {
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const me = session.state === "signed-in" ? session.me : null;

  return (
    <header className="topbar">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Link to="/" className="brand" aria-label="Mockloop home">
        <span className="brand-mark" aria-hidden="true">
          ◎
        </span>
        Mockloop
      </Link>
      {me && (
        <nav aria-label="Main">
          <ul>
            {me.role !== "coach" && (
              <li>
                <NavLink to="/" end>
                  Loops
                </NavLink>
              </li>
            )}
            {me.role !== "coach" && (
              <li>
                <NavLink to="/progress">Progress</NavLink>
              </li>
            )}
            {(me.role === "coach" || me.role === "admin") && (
              <li>
                <NavLink to="/coach" end>Coach console</NavLink>
              </li>
            )}
            {(me.role === "coach" || me.role === "admin") && (
              <li>
                <NavLink to="/coach/calibration">Calibration</NavLink>
              </li>
            )}
            {me.role === "admin" && (
              <li>
                <NavLink to="/bank">Question bank</NavLink>
              </li>
            )}
            {me.role === "admin" && (
              <li>
                <a href="/admin/">Django admin</a>
              </li>
            )}
          </ul>
        </nav>
      )}
      <div className="topbar-right">
        {me ? (
          <>
            <Link to="/settings" className="who" title="Account settings">
              {me.username} <span className={`role role-${me.role}`}>{me.role}</span>
            </Link>
            <button
              type="button"
              className="secondary small"
              onClick={() => void signOut().then(() => navigate("/login"))}
            >
              Sign out
            </button>
          </>
        ) : (
          session.state !== "loading" && (
            <>
              <NavLink to="/login">Sign in</NavLink>
              <NavLink to="/signup" className="button primary small">
                Sign up
              </NavLink>
            </>
          )
        )}
      </div>
    </header>
  );
}
