// Sizes of the fault runs, from the environment: small defaults for `npm test` (the three runs in
// well under two minutes on two cores), full ones for `npm run test:faults`. Each FAULTS_* variable
// overrides either.
import { size } from '../../reliability/support/env';

export interface FaultSizes {
  /** Run 1: webhook events produced (two per deposit: requested, completed). */
  events: number;
  /** Run 1: deposits in flight at once while producing them. */
  producers: number;
  /** Run 2: client loops per replica sending requests through the outage. */
  outageClientsPerReplica: number;
  /** Run 2: load before Redis is stopped, and how long it stays stopped (real ms). */
  warmupMs: number;
  outageMs: number;
  /** Run 3: racers on one quote, and races (each with one replica killed, then started again). */
  racers: number;
  raceRounds: number;
}

export function faultSizes(full: boolean): FaultSizes {
  return {
    events: size('FAULTS_EVENTS', full ? 2_000 : 150),
    producers: size('FAULTS_PRODUCERS', full ? 12 : 6),
    outageClientsPerReplica: size('FAULTS_OUTAGE_CLIENTS', full ? 8 : 3),
    warmupMs: size('FAULTS_WARMUP_MS', full ? 5_000 : 1_500),
    outageMs: size('FAULTS_OUTAGE_MS', full ? 15_000 : 5_000),
    racers: size('FAULTS_RACERS', 100),
    raceRounds: size('FAULTS_RACE_ROUNDS', full ? 10 : 2),
  };
}

/** The jobs' lease the runs give the replicas (JOB_LEASE_MS, real ms): short, so a killed replica's jobs are claimed again quickly. */
export const JOB_LEASE_MS = size('FAULTS_JOB_LEASE_MS', 2_000);
