import { ApiPath, type Contact } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

/** The spec reads the contact list from `data`; a bare array is accepted too. */
export async function getContacts(): Promise<Contact[]> {
  const response = await api.get<Contact[] | { data: Contact[] }>(ApiPath.chatContacts);
  return contactsOf(response);
}

function contactsOf(response: Contact[] | { data: Contact[] }): Contact[] {
  return Array.isArray(response) ? response : Array.isArray(response?.data) ? response.data : [];
}
