-- AlterTable
ALTER TABLE "LlmCall" ADD COLUMN     "cacheWrite1hInputTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "cacheWriteInputTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "costUsd" DECIMAL(16,10);
