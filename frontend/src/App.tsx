import { Home } from "./pages/Home";

export function App() {
  return <Home />;
}
