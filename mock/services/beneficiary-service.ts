// Beneficiaries and their payment instructions. Instructions have their own state (the document's
// x-lifecycle on PaymentInstructionState.status) and each transition emits the
// BENEFICIARY_INSTRUCTION_* event it lists, with the seed's payment-instruction payload.
import { ServiceError } from '../errors/catalogue';
import { instructionRejectedAtOnce, MAGIC_REJECTION } from '../domain/magic-values';
import { instructionCreatedEvent, instructionEventPayload, stepInstruction, type InstructionStatus } from '../domain/beneficiaries';
import { readPage, type PageParams } from '../domain/pagination/page';
import type { Reason } from '../domain/operations/state-machine';
import type { Beneficiary, EventType, PaymentInstruction, Schemas } from '../domain/records';
import type { DomainEvent } from '../events/event-bus';
import type { Deps } from './deps';
import { ownBeneficiary } from './ownership';

type BeneficiaryCreate = Schemas['BeneficiaryCreate'];
type PaymentInstructionCreate = Schemas['PaymentInstructionCreate'];

export class BeneficiaryService {
  constructor(private readonly deps: Deps) {}

  list(customerId: string, params: PageParams) {
    const { store, codec } = this.deps;
    return readPage(
      codec,
      `beneficiary:${customerId}`,
      params,
      (q) => store.page('beneficiary', { scope: customerId, ...q }),
      (r) => r,
    );
  }

  get(customerId: string, beneficiaryId: string): Promise<Beneficiary> {
    return ownBeneficiary(this.deps.store, customerId, beneficiaryId);
  }

  async create(customerId: string, body: BeneficiaryCreate): Promise<Beneficiary> {
    const { store, clocks, newId } = this.deps;
    const clock = await clocks.clockOf(customerId);
    const at = clock.nowIso();
    const beneficiary: Beneficiary = {
      id: newId(),
      customerId,
      entity: body.entity,
      relationshipType: body.relationshipType,
      paymentInstructions: (body.paymentInstructions ?? []).map((input) => this.newInstruction(input, at)),
      createdAt: at,
      updatedAt: at,
    };
    const events = this.deps.outbox.entries(
      ...beneficiary.paymentInstructions.flatMap((pi) => instructionEvents(instructionCreatedEvent(pi), beneficiary, pi)),
    );
    await store.insert('beneficiary', customerId, beneficiary.id, beneficiary, events);
    await this.deps.outbox.publish(events);
    return this.applyMagicValues(customerId, beneficiary, beneficiary.paymentInstructions);
  }

  async addInstruction(customerId: string, beneficiaryId: string, input: PaymentInstructionCreate): Promise<Beneficiary> {
    const { store, clocks } = this.deps;
    const clock = await clocks.clockOf(customerId);
    await ownBeneficiary(store, customerId, beneficiaryId);
    const at = clock.nowIso();
    const instruction = this.newInstruction(input, at);
    const add = this.deps.outbox.update((current: Beneficiary) => {
      const next = { ...current, paymentInstructions: [...current.paymentInstructions, instruction], updatedAt: at };
      return { next, events: instructionEvents(instructionCreatedEvent(instruction), next, instruction) };
    });
    const updated = (await store.update('beneficiary', beneficiaryId, add.change, add.of))!;
    await this.deps.outbox.publish(add.entries());
    return this.applyMagicValues(customerId, updated, [instruction]);
  }

  /** Magic value reject@fos-mock.test: a new instruction with that PIX key is rejected at once. */
  private async applyMagicValues(customerId: string, beneficiary: Beneficiary, added: PaymentInstruction[]): Promise<Beneficiary> {
    let current = beneficiary;
    for (const instruction of added) {
      if (instructionRejectedAtOnce(instruction))
        current = await this.moveInstruction(customerId, beneficiary.id, instruction.id, 'REJECTED', MAGIC_REJECTION);
    }
    return current;
  }

  /** Approves, rejects or flags an instruction (control API). */
  async moveInstruction(
    customerId: string,
    beneficiaryId: string,
    instructionId: string,
    to: InstructionStatus,
    reason?: Reason,
  ): Promise<Beneficiary> {
    const { store, clocks } = this.deps;
    const clock = await clocks.clockOf(customerId);
    const beneficiary = await ownBeneficiary(store, customerId, beneficiaryId);
    if (!beneficiary.paymentInstructions.some((pi) => pi.id === instructionId)) {
      throw new ServiceError(
        'RESOURCE_NOT_FOUND',
        { resource: 'paymentInstruction', id: instructionId },
        `No payment instruction with id ${instructionId}.`,
      );
    }
    const at = clock.nowIso();
    // The event of the transition made, from the lifecycle.
    const move = this.deps.outbox.update((current: Beneficiary) => {
      const index = current.paymentInstructions.findIndex((pi) => pi.id === instructionId);
      const step = stepInstruction(current.paymentInstructions[index] as PaymentInstruction, to, at, reason);
      const paymentInstructions = current.paymentInstructions.map((pi, i) => (i === index ? step.next : pi));
      const next = { ...current, paymentInstructions, updatedAt: at };
      return { next, events: instructionEvents(step.event, next, step.next) };
    });
    const updated = (await store.update('beneficiary', beneficiaryId, move.change, move.of))!;
    await this.deps.outbox.publish(move.entries());
    return updated;
  }

  private newInstruction(input: PaymentInstructionCreate, at: string): PaymentInstruction {
    const instruction: PaymentInstruction = {
      id: this.deps.newId(),
      asset: input.asset,
      currentState: { status: 'CREATED', createdAt: at },
      address: input.address,
      createdAt: at,
    };
    if (input.documents) instruction.documents = input.documents;
    if (input.custodyDetail) instruction.custodyDetail = input.custodyDetail;
    return instruction;
  }
}

/** The BENEFICIARY_INSTRUCTION_* event the lifecycle names for an instruction's last change (none when it names none). */
function instructionEvents(eventType: EventType | null, beneficiary: Beneficiary, instruction: PaymentInstruction): DomainEvent[] {
  if (!eventType) return [];
  const atTime = instruction.currentState.createdAt;
  return [
    {
      eventType,
      resource: 'BENEFICIARY',
      customerId: beneficiary.customerId,
      atTime,
      payload: instructionEventPayload(beneficiary, instruction, atTime),
    },
  ];
}
