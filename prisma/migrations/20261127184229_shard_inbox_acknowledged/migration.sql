-- AlterTable
ALTER TABLE "ShardInbox" ADD COLUMN     "acknowledged" TEXT;
