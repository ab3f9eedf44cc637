// Payment-instruction actions, through BeneficiaryService (BENEFICIARY_INSTRUCTION_* events follow).
import type { InstructionStatus } from '../domain/beneficiaries';
import type { BeneficiaryService } from '../services/beneficiary-service';
import { ok, type ControlContext, type ControlHandlers } from './context';
import { beneficiaryOwner } from './lookup';
import { assertPublic } from './public-schemas';

export function beneficiaryHandlers(c: ControlContext) {
  type Reason = Parameters<BeneficiaryService['moveInstruction']>[4];
  const move = async (
    { beneficiaryId, instructionId }: { beneficiaryId: string; instructionId: string },
    to: InstructionStatus,
    reason?: Reason,
  ) => {
    const customerId = await beneficiaryOwner(c.deps.store, beneficiaryId);
    if (reason !== undefined) assertPublic(c.publicContract, 'Reason', reason, 'body.reason');
    return ok(await c.services.beneficiaries.moveInstruction(customerId, beneficiaryId, instructionId, to, reason));
  };
  return {
    approvePaymentInstruction: ({ params }) => move(params, 'APPROVED'),
    rejectPaymentInstruction: ({ params, body }) => move(params, 'REJECTED', body.reason),
    requirePaymentInstructionAction: ({ params, body }) => move(params, 'ACTION_REQUIRED', body.reason),
  } satisfies Partial<ControlHandlers>;
}
