// The signed-in person's second factors (GET /session/second-factors), shared by the sections of
// the security page and the gate that sends someone without one there when their team requires it.
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api.js';

export const SECOND_FACTORS_KEY = ['second-factors'] as const;

export function useSecondFactors() {
  return useQuery({ queryKey: SECOND_FACTORS_KEY, queryFn: async () => ok(await api.GET('/session/second-factors')).data });
}
