-- AlterTable
ALTER TABLE "LlmCall" ADD COLUMN     "userId" TEXT;

-- CreateIndex
CREATE INDEX "LlmCall_userId_createdAt_idx" ON "LlmCall"("userId", "createdAt");
