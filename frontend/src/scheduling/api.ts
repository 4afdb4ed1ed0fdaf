// Scheduling's slice of /api/v1/ (interviews/api/scheduling.py): a coach's slots, the open
// slots a candidate books, and the booked sessions.
import { request } from "../api/client";
import type { components } from "../api/schema";

type S = components["schemas"];
export type Slot = S["Slot"];
export type Booking = S["Booking"];
export type SlotInput = S["SlotInputRequest"];

export const schedulingApi = {
  mySlots: () => request<Slot[]>("GET", "/api/v1/slots/"),
  openSlots: () => request<Slot[]>("GET", "/api/v1/slots/open/"),
  publish: (input: SlotInput & { weeks?: number }) => request<Slot[]>("POST", "/api/v1/slots/", input),
  updateSlot: (id: number, input: SlotInput) => request<Slot>("PUT", `/api/v1/slots/${id}/`, input),
  deleteSlot: (id: number) => request<void>("DELETE", `/api/v1/slots/${id}/`),
  bookings: () => request<Booking[]>("GET", "/api/v1/bookings/"),
  book: (stage: number, slot: number) => request<Booking>("POST", "/api/v1/bookings/", { stage, slot }),
  cancel: (id: number) => request<Booking>("POST", `/api/v1/bookings/${id}/cancel/`),
  reschedule: (id: number, slot: number) =>
    request<Booking>("POST", `/api/v1/bookings/${id}/reschedule/`, { slot }),
};
