import { lazy, type ReactNode, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { createBrowserRouter, Link, Navigate, Outlet, Route, RouterProvider, Routes, useLocation } from "react-router";

import type { Role } from "./api/client";
import { SettingsPage } from "./account/SettingsPage";
import { LoginPage, SignupPage } from "./auth/AuthPages";
import { ForgotPasswordPage, ResetPasswordPage, VerifyEmailPage } from "./auth/PasswordResetPages";
import { SessionProvider, useSession } from "./auth/session";
import { CoachHome } from "./coach/CoachHome";
import { CoachRoomPage } from "./coach/CoachRoom";
import { Dashboard } from "./candidate/Dashboard";
import { LoopPage } from "./candidate/LoopPage";
import { Progress } from "./candidate/Progress";
import { ScorecardView } from "./candidate/ScorecardView";
import { TopBar } from "./layout/TopBar";
import { useMinWidth } from "./lib/useMinWidth";
import { GlossaryPage } from "./pages/GlossaryPage";
import { ForbiddenPage, NotFoundPage, Problem } from "./pages/Problem";
import { PlanIndexPage, PlanPage } from "./plan/PlanPage";
import { NarrowScreen, ROOM_MIN_WIDTH } from "./rooms/shared/NarrowScreen";
import { StageRoomPage } from "./rooms/StageRoomPage";
import { AvailabilityPage } from "./scheduling/AvailabilityPage";
import { BookingPage } from "./scheduling/BookingPage";

// Admin, replay and report pages are their own chunks: a candidate's room never loads them.
const AdminRoutes = lazy(() => import("./admin/AdminRoutes"));
const ReplayPage = lazy(() => import("./replay/ReplayPage"));
const LoopReportPage = lazy(() => import("./reports/LoopReportPage"));
const CalibrationPage = lazy(() => import("./reports/CalibrationPage"));

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}

function Loading() {
  const { t } = useTranslation();
  return (
    <main id="main" className="page">
      <p className="muted">{t("common:loading")}</p>
    </main>
  );
}

/** Signed-in pages; `roles` narrows who may open them (others get a clear "not allowed"). */
function RequireAuth({ roles, children }: { roles?: Role[]; children?: ReactNode }) {
  const { session } = useSession();
  const location = useLocation();
  if (session.state === "loading") return <Loading />;
  if (session.state === "unavailable") return <Problem error={session.error} />;
  if (session.state === "signed-out") {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login?next=${next}${session.ended ? "&ended=1" : ""}`} replace />;
  }
  if (roles && !roles.includes(session.me.role)) return <ForbiddenPage roles={roles} />;
  return <>{children ?? <Outlet />}</>;
}

function Home() {
  const { t } = useTranslation();
  const { session } = useSession();
  if (session.state === "loading") return <Loading />;
  if (session.state === "signed-in") {
    return session.me.role === "coach" ? <Navigate to="/coach" replace /> : <Dashboard />;
  }
  if (session.state === "unavailable") return <Problem error={session.error} />;
  return (
    <main id="main" className="page landing">
      <h1>{t("auth:landing.title")}</h1>
      <p className="lead">{t("auth:landing.lead")}</p>
      <p className="row">
        <Link className="button primary" to="/signup">
          {t("auth:createAccount")}
        </Link>
        <Link className="button secondary" to="/login">
          {t("auth:signIn")}
        </Link>
      </p>
    </main>
  );
}

/** A room, or below tablet width the notice that it needs a wider screen. */
function WideEnough({ children }: { children: ReactNode }) {
  return useMinWidth(ROOM_MIN_WIDTH) ? children : <NarrowScreen />;
}

function StageRoute() {
  const { session } = useSession();
  const wide = useMinWidth(ROOM_MIN_WIDTH);
  if (!wide) return <NarrowScreen />;
  if (session.state === "signed-in" && session.me.role !== "candidate") return <CoachRoomPage />;
  return <StageRoomPage />;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Home />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/signup" element={<SignupPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="/verify-email" element={<VerifyEmailPage />} />
      <Route path="/glossary" element={<GlossaryPage />} />
      <Route element={<RequireAuth />}>
        <Route path="/settings" element={<SettingsPage />} />
        <Route path="/loops/:loopId" element={<LoopPage />} />
        <Route path="/stages/:stageId" element={<StageRoute />} />
        <Route path="/stages/:stageId/scorecard" element={<ScorecardView />} />
        <Route path="/stages/:stageId/book" element={<BookingPage />} />
        <Route path="/stages/:stageId/replay" element={<Lazy><ReplayPage /></Lazy>} />
        <Route path="/loops/:loopId/report" element={<Lazy><LoopReportPage /></Lazy>} />
        <Route path="/progress" element={<Progress />} />
        <Route path="/plan" element={<PlanIndexPage />} />
        <Route path="/plan/:slug" element={<PlanPage />} />
      </Route>
      <Route element={<RequireAuth roles={["coach", "admin"]} />}>
        <Route path="/coach" element={<CoachHome />} />
        <Route path="/coach/calibration" element={<Lazy><CalibrationPage /></Lazy>} />
        <Route path="/coach/*" element={<CoachRoutes />} />
      </Route>
      <Route element={<RequireAuth roles={["admin"]} />}>
        <Route path="/bank/*" element={<Lazy><AdminRoutes /></Lazy>} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

function CoachRoutes() {
  return (
    <Routes>
      <Route path="stages/:stageId" element={<WideEnough><CoachRoomPage /></WideEnough>} />
      <Route path="availability" element={<AvailabilityPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

function Shell() {
  return (
    <SessionProvider>
      <TopBar />
      <AppRoutes />
    </SessionProvider>
  );
}

/** A data router (one splat route holding the app's own `<Routes>`), so that a page with
 * unsaved edits can ask before in-app navigation leaves it (`useBlocker`). */
export function App() {
  const [router] = useState(() => createBrowserRouter([{ path: "*", element: <Shell /> }]));
  return <RouterProvider router={router} />;
}
