import { NavLink } from "react-router";

export function BankNav() {
  return (
    <nav className="subnav" aria-label="Question bank">
      <NavLink to="/bank" end>
        Questions
      </NavLink>
      <NavLink to="/bank/rubrics">Rubrics</NavLink>
      <NavLink to="/bank/loops">Loop templates</NavLink>
      <NavLink to="/bank/transfer">Import / export</NavLink>
    </nav>
  );
}
